"""`pith install-host` and `pith doctor` against a temporary HOME and profile folder (no browser needed)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from pith import cli, install

HOST_JSON = f"{install.HOST_NAME}.json"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A temporary HOME, without XDG overrides, so nothing touches the real one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(var, raising=False)
    return home


def run(capsys, *argv) -> tuple[int, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:                # argparse usage errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out + out.err


def test_install_all_writes_each_browser_and_one_launcher(home, capsys):
    code, out = run(capsys, "install-host")
    assert code == 0
    launcher = home / ".local" / "share" / "pith" / "pith-host"
    where = {"chrome": home / ".config" / "google-chrome" / "NativeMessagingHosts" / HOST_JSON,
             "chromium": home / ".config" / "chromium" / "NativeMessagingHosts" / HOST_JSON,
             "firefox": home / ".mozilla" / "native-messaging-hosts" / HOST_JSON}
    for browser, path in where.items():
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["path"] == str(launcher) and data["type"] == "stdio"
        assert data["name"] == install.HOST_NAME
        assert str(path) in out
    assert "allowed_extensions" in json.loads(where["firefox"].read_text())
    assert "allowed_origins" in json.loads(where["chrome"].read_text())
    assert os.access(launcher, os.X_OK) and str(launcher) in out
    script = launcher.read_text(encoding="utf-8")
    assert script.startswith("#!/bin/sh\n") and "-m pith.host" in script


def test_install_is_idempotent(home, capsys):
    run(capsys, "install-host", "--browser", "firefox")
    path = home / ".mozilla" / "native-messaging-hosts" / HOST_JSON
    before = path.read_bytes()
    code, out = run(capsys, "install-host", "--browser", "firefox")
    assert code == 0 and "unchanged" in out and "wrote" not in out
    assert path.read_bytes() == before


def test_xdg_dirs_are_honoured(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    run(capsys, "install-host", "--browser", "chromium")
    assert (tmp_path / "cfg" / "chromium" / "NativeMessagingHosts" / HOST_JSON).is_file()
    assert (tmp_path / "data" / "pith" / "pith-host").is_file()


def test_user_data_dir_keeps_everything_in_the_profile(home, tmp_path, capsys):
    profile = tmp_path / "profile"
    code, out = run(capsys, "install-host", "--browser", "chromium", "--user-data-dir", str(profile))
    assert code == 0
    data = json.loads((profile / "NativeMessagingHosts" / HOST_JSON).read_text())
    assert data["path"] == str(profile / "NativeMessagingHosts" / "pith-host")
    assert data["allowed_origins"] == install.template("chrome")["allowed_origins"]
    assert not any(home.iterdir()), "install-host --user-data-dir wrote into HOME"


def test_user_data_dir_is_not_for_firefox(home, tmp_path, capsys):
    code, out = run(capsys, "install-host", "--browser", "firefox", "--user-data-dir", str(tmp_path))
    assert code == 2 and "Firefox" in out


def test_uninstall_removes_what_install_wrote(home, capsys):
    run(capsys, "install-host")
    code, out = run(capsys, "install-host", "--uninstall")
    assert code == 0 and "removed" in out
    leftovers = [p for p in home.rglob("*") if p.is_file()]
    assert leftovers == []
    code, out = run(capsys, "install-host", "--uninstall")
    assert code == 0 and "nothing to remove" in out


def test_uninstall_one_browser_keeps_the_launcher_for_the_others(home, capsys):
    run(capsys, "install-host")
    run(capsys, "install-host", "--uninstall", "--browser", "chrome")
    assert (home / ".local" / "share" / "pith" / "pith-host").is_file()
    assert not (home / ".config" / "google-chrome" / "NativeMessagingHosts" / HOST_JSON).exists()


def test_launcher_speaks_native_messaging(home):
    written = install.install(["firefox"])
    result, ms = install.hello(written[0].path)
    assert result["host"] == "pith" and result["protocol"] == 1
    assert isinstance(result["pid"], int) and ms > 0


def test_launcher_runs_without_the_venv_on_path(home):
    """Browsers start the host with their own PATH: the launcher must not need the venv's."""
    launcher = install.install(["firefox"])[0].path
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    frame = b'\x1f\x00\x00\x00{"v":1,"id":1,"action":"hello"}'
    done = subprocess.run([str(launcher)], input=frame, capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b'"host":"pith"' in done.stdout


def test_doctor_all_good(home, capsys):
    run(capsys, "install-host")
    code, out = run(capsys, "doctor")
    assert code == 0, out
    assert "✗" not in out
    assert "answered hello" in out and out.count("✓") >= 4


def test_doctor_user_data_dir(home, tmp_path, capsys):
    profile = tmp_path / "profile"
    code, out = run(capsys, "doctor", "--user-data-dir", str(profile))
    assert code == 1 and "✗" in out
    assert f"pith install-host --browser chromium --user-data-dir {profile}" in out
    run(capsys, "install-host", "--user-data-dir", str(profile))
    code, out = run(capsys, "doctor", "--user-data-dir", str(profile))
    assert code == 0, out


def test_doctor_reports_a_missing_registration_with_its_fix(home, capsys):
    run(capsys, "install-host", "--browser", "chromium")
    code, out = run(capsys, "doctor", "--browser", "firefox")
    assert code == 1
    assert "✗ firefox" in out and "fix: pith install-host --browser firefox" in out


def test_doctor_reports_a_launcher_that_is_gone(home, capsys):
    written = install.install(["chromium"])
    written[0].path.unlink()
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 1 and "does not exist" in out and "fix: pith install-host" in out


def test_doctor_reports_a_host_that_does_not_answer(home, capsys):
    written = install.install(["chromium"])
    written[0].path.write_text("#!/bin/sh\necho 'pith-host: broken on purpose' >&2\nexit 3\n")
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 1
    assert "did not answer hello" in out and "broken on purpose" in out


def test_doctor_reports_a_manifest_for_another_extension(home, capsys):
    written = install.install(["chromium"])
    path = written[1].path
    data = json.loads(path.read_text())
    data["allowed_origins"] = ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]
    path.write_text(json.dumps(data))
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 1 and "allowed_origins lacks" in out


def test_extension_id_of_a_known_key():
    # The id Chrome shows for this key (computed by Chrome, checked once by hand).
    key = json.loads((install.EXTENSION_MANIFEST).read_text())["key"]
    assert install.extension_id(key) == "odogbmdkgeecoaeobmjeoofommiafhhh"
