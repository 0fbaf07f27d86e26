"""`pith install-host` and `pith doctor` against a temporary HOME and profile folder (no browser needed)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from pith import cli
from pith.native import install

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
    assert script.startswith("#!/bin/sh\n") and "-m pith.native.host" in script


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


def test_doctor_names_a_launcher_from_before_the_host_moved(home, capsys):
    """A launcher written before the host moved to pith/native/ runs `-m pith.host`, which
    no longer exists: doctor says so and says to rewrite it, and install-host does."""
    launcher = install.install(["chromium"])[0].path
    text = launcher.read_text()
    assert f"-m {install.HOST_MODULE} " in text
    launcher.write_text(text.replace(f"-m {install.HOST_MODULE} ", "-m pith.host "))
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 1, out
    assert "-m pith.host" in out and "fix: pith install-host" in out
    run(capsys, "install-host", "--browser", "chromium")
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 0 and "answered hello" in out, out


def test_only_the_old_module_name_counts_as_old(tmp_path):
    launcher = tmp_path / "pith-host"
    launcher.write_text('exec python -m pith.native.host "$@"\n')
    assert not install.runs_old_module(launcher)
    launcher.write_text('exec python -m pith.host "$@"\n')
    assert install.runs_old_module(launcher)
    launcher.write_text('"C:\\Python\\python.exe" -m pith.host %*\r\n')
    assert install.runs_old_module(launcher)
    assert not install.runs_old_module(tmp_path / "missing")


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


# --- every desktop: the plan computed for Linux, macOS and Windows -------------------------
WIN_PYTHON = r"C:\Users\Ana\pith\.venv\Scripts\python.exe"
WIN_ROOT = r"C:\Users\Ana\pith\host"


def test_plan_on_linux_covers_edge_and_brave():
    system = install.System("linux", "/home/ana", {"XDG_CONFIG_HOME": "/home/ana/cfg"})
    todo = install.plan(list(install.BROWSERS), system=system, python="/venv/bin/python",
                        package_root="/src/host")
    where = {f.what: str(f.path) for f in todo.files}
    assert where == {
        "launcher": "/home/ana/.local/share/pith/pith-host",
        "chrome": f"/home/ana/cfg/google-chrome/NativeMessagingHosts/{HOST_JSON}",
        "chromium": f"/home/ana/cfg/chromium/NativeMessagingHosts/{HOST_JSON}",
        "edge": f"/home/ana/cfg/microsoft-edge/NativeMessagingHosts/{HOST_JSON}",
        "brave": f"/home/ana/cfg/BraveSoftware/Brave-Browser/NativeMessagingHosts/{HOST_JSON}",
        "firefox": f"/home/ana/.mozilla/native-messaging-hosts/{HOST_JSON}"}
    assert todo.registry == []
    manifests = {f.what: json.loads(f.text) for f in todo.files if f.what != "launcher"}
    chrome_origins = install.template("chrome")["allowed_origins"]
    for browser in ("chrome", "chromium", "edge", "brave"):
        assert manifests[browser]["allowed_origins"] == chrome_origins     # Chromium ids
        assert manifests[browser]["path"] == "/home/ana/.local/share/pith/pith-host"
    assert "allowed_extensions" in manifests["firefox"]
    launcher = todo.files[0].text
    assert launcher.startswith("#!/bin/sh\n") and "exec /venv/bin/python -m pith.native.host" in launcher


def test_plan_on_macos():
    system = install.System("darwin", "/Users/ana", {})
    todo = install.plan(list(install.BROWSERS), system=system, python="/venv/bin/python",
                        package_root="/src/host")
    support = "/Users/ana/Library/Application Support"
    where = {f.what: str(f.path) for f in todo.files}
    assert where == {
        "launcher": f"{support}/pith/pith-host",
        "chrome": f"{support}/Google/Chrome/NativeMessagingHosts/{HOST_JSON}",
        "chromium": f"{support}/Chromium/NativeMessagingHosts/{HOST_JSON}",
        "edge": f"{support}/Microsoft Edge/NativeMessagingHosts/{HOST_JSON}",
        "brave": f"{support}/BraveSoftware/Brave-Browser/NativeMessagingHosts/{HOST_JSON}",
        "firefox": f"{support}/Mozilla/NativeMessagingHosts/{HOST_JSON}"}
    assert todo.registry == []


def test_plan_on_windows_writes_registry_keys_and_a_bat_launcher():
    system = install.System("win32", r"C:\Users\Ana",
                            {"LOCALAPPDATA": r"C:\Users\Ana\AppData\Local"})
    todo = install.plan(list(install.BROWSERS), system=system, python=WIN_PYTHON,
                        package_root=WIN_ROOT)
    base = r"C:\Users\Ana\AppData\Local\pith"
    where = {f.what: str(f.path) for f in todo.files}
    assert where["launcher"] == base + r"\pith-host.bat"
    for browser in install.BROWSERS:
        assert where[browser] == rf"{base}\{browser}\{HOST_JSON}"
        assert json.loads(next(f.text for f in todo.files if f.what == browser))["path"] == \
            base + r"\pith-host.bat"
    keys = {v.browser: (v.key, v.value) for v in todo.registry}
    assert keys == {
        "chrome": (r"Software\Google\Chrome\NativeMessagingHosts\dev.pith.host", where["chrome"]),
        "chromium": (r"Software\Chromium\NativeMessagingHosts\dev.pith.host", where["chromium"]),
        "edge": (r"Software\Microsoft\Edge\NativeMessagingHosts\dev.pith.host", where["edge"]),
        "brave": (r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\dev.pith.host",
                  where["brave"]),
        "firefox": (r"Software\Mozilla\NativeMessagingHosts\dev.pith.host", where["firefox"])}
    bat = todo.files[0].text
    lines = bat.split("\r\n")
    assert lines[0] == "@echo off" and lines[-1] == ""          # CRLF lines, nothing echoed
    assert "\n" not in bat.replace("\r\n", "")
    assert f'"{WIN_PYTHON}" -m pith.native.host %*' in lines
    assert f'set "PYTHONPATH={WIN_ROOT};%PYTHONPATH%"' in lines


def test_windows_launcher_escapes_percent_signs():
    system = install.System("win32", r"C:\Users\Ana", {})
    bat = install.launcher_script(r"C:\100%\python.exe", system, r"C:\src")
    assert r'"C:\100%%\python.exe" -m pith.native.host %*' in bat
    assert install.launcher_path(system=system) == \
        install.System("win32", "", {}).path(r"C:\Users\Ana\AppData\Local\pith\pith-host.bat")


def test_windows_has_no_profile_folder_registration(tmp_path):
    system = install.System("win32", r"C:\Users\Ana", {})
    with pytest.raises(install.InstallError, match="registry"):
        install.plan(["chromium"], tmp_path, system=system)


def test_install_edge_and_brave_here(home, capsys):
    code, out = run(capsys, "install-host", "--browser", "edge")
    assert code == 0, out
    edge = home / ".config" / "microsoft-edge" / "NativeMessagingHosts" / HOST_JSON
    assert json.loads(edge.read_text())["allowed_origins"] == \
        install.template("chrome")["allowed_origins"]
    code, out = run(capsys, "install-host", "--browser", "brave")
    brave = home / ".config" / "BraveSoftware" / "Brave-Browser" / "NativeMessagingHosts" / HOST_JSON
    assert code == 0 and brave.is_file()
    code, out = run(capsys, "doctor", "--browser", "brave")
    assert code == 0 and "✓ brave: registered" in out and "answered hello" in out


def test_doctor_after_make_run_names_the_demo_profile_and_the_everyday_fix(home, tmp_path,
                                                                           monkeypatch, capsys):
    """`make run` registers the host in its own profile only: doctor must say so instead
    of a bare ✗ for every browser."""
    profile = tmp_path / "demo-profile"
    monkeypatch.setattr(install, "DEMO_PROFILE", profile)
    install.install(["chromium"], profile)                 # what pith.demo does
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 1 and "✗ chromium" in out
    demo_manifest = profile.resolve() / "NativeMessagingHosts" / HOST_JSON
    assert f"the demo profile of `make run` has the host registered ({demo_manifest})" in out
    assert "for your everyday browser run `pith install-host --browser chromium`" in out
    assert "Load unpacked" in out and "about:debugging" in out
    run(capsys, "install-host", "--browser", "chromium")
    code, out = run(capsys, "doctor", "--browser", "chromium")
    assert code == 0 and "demo profile" not in out
