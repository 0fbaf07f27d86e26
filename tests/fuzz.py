"""`make fuzz`: the long fuzz run over the four targets of tests/fuzz_cases.py, with figures.

Run: `.venv/bin/python tests/fuzz.py [--target T ...] [--cases N] [--seed S]
[--engine auto|hypothesis|atheris]`.

Each target gets N cases (default: its share of DEFAULT_CASES); printed per target and in
total: cases run, crashes (must be 0), hangs, and the slowest case in ms. A crash is any
input that breaks the target's property (fuzz_cases.py says which); each is written with
its input to .cache/fuzz/<target>-crashes.txt and the run goes on. A case still running
after HANG_S is a hang: the traceback is printed and the run stops with status 2.

Engines: the framing target runs under atheris (libFuzzer, coverage-guided over
pith.native.framing's own lines) when atheris is installed, since a byte parser is where
coverage guidance finds what random generation misses; every other target, and framing
without atheris, runs under Hypothesis (random generation from the structured strategies,
no shrinking: a crash is recorded, not minimised). The exit status is 1 when anything
crashed.
"""
from __future__ import annotations

import argparse
import faulthandler
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
sys.path[:0] = [str(TESTS), str(ROOT / "host")]

# Cases per target of a default `make fuzz`: 100,000 in all, weighted to each target's
# cost per case (framing is microseconds, a static extraction tens of milliseconds).
DEFAULT_CASES = {"framing": 40_000, "protocol": 25_000, "snapshot": 20_000, "static": 15_000}

# A case running this long is a hang, not a slow case (the target is < 1 s per case).
HANG_S = 30

# Where crashes are written, one file per target.
OUT_DIR = ROOT / ".cache" / "fuzz"

# Hypothesis draws a fresh random seed per round; a round this size is reported as one
# line of progress.
ROUND = 1_000


class Tally:
    """Cases, crashes and the slowest case of one target."""

    def __init__(self, target: str):
        self.target, self.cases, self.crashes, self.slowest_ms = target, 0, 0, 0.0
        self.slowest_case = ""
        self.path = OUT_DIR / f"{target}-crashes.txt"

    def run(self, check, case) -> None:
        faulthandler.dump_traceback_later(HANG_S, exit=True)
        t0 = time.perf_counter()
        try:
            check(case)
        except Exception as exc:  # noqa: BLE001 - every finding is recorded, the run goes on
            self.crashes += 1
            with self.path.open("a", encoding="utf-8", errors="backslashreplace") as f:
                f.write(f"--- {type(exc).__name__}: {exc}\n{case!r:.20000}\n")
        finally:
            faulthandler.cancel_dump_traceback_later()
            ms = (time.perf_counter() - t0) * 1e3
            self.cases += 1
            if ms > self.slowest_ms:
                self.slowest_ms, self.slowest_case = ms, f"{case!r:.160}"

    def line(self) -> str:
        return (f"{self.target:<9} cases {self.cases:>7}  crashes {self.crashes}  "
                f"slowest {self.slowest_ms:8.1f} ms")


def target_of(name: str, folder: Path):
    """(strategy, check) of a target."""
    import fuzz_cases as fc
    if name == "framing":
        return fc.frame_streams(), fc.check_framing
    if name == "protocol":
        fc.seeded_selection()
        return fc.frames(), fc.check_protocol
    if name == "snapshot":
        fc.seeded_selection()
        return fc.snapshot_mutations(), fc.check_snapshot
    if name == "static":
        fc.seeded_selection()
        return fc.html_mutations(), fc.StaticExtractor(folder)
    raise SystemExit(f"unknown target {name!r}")


def run_hypothesis(name: str, cases: int, seed: int) -> Tally:
    from hypothesis import HealthCheck, Phase, given, seed as hseed, settings
    tally = Tally(name)
    with tempfile.TemporaryDirectory() as tmp:
        strategy, check = target_of(name, Path(tmp))
        rounds = 0
        while tally.cases < cases:
            size = min(ROUND, cases - tally.cases)

            @hseed(seed + rounds)
            @settings(max_examples=size, database=None, deadline=None, phases=[Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(strategy)
            def one(case):
                tally.run(check, case)

            one()
            rounds += 1
            print(f"  {tally.line()}", flush=True)
    return tally


def run_atheris(cases: int, seed: int) -> Tally:
    """The framing target under libFuzzer; the input bytes are split by a
    FuzzedDataProvider into (max_bytes, read sizes, stream)."""
    import atheris
    with atheris.instrument_imports(include=["pith.native.framing"]):
        from pith.native import framing
    import fuzz_cases as fc
    tally = Tally("framing")
    limits = [0, 1, 2, 7, 8, 64, 1024, framing.MAX_IN]

    def one_input(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        max_bytes = limits[fdp.ConsumeIntInRange(0, len(limits) - 1)]
        pieces = [fdp.ConsumeIntInRange(1, fc.MAX_PIECE) for _ in range(fdp.ConsumeIntInRange(1, 8))]
        tally.run(fc.check_framing, (fdp.ConsumeBytes(fdp.remaining_bytes()), pieces, max_bytes))
        if tally.cases % 10_000 == 0:
            print(f"  {tally.line()}", flush=True)
        if tally.cases >= cases:
            report([tally], "atheris")
            sys.stdout.flush()
            os._exit(1 if tally.crashes else 0)   # libFuzzer would run on; these are the figures

    atheris.Setup([sys.argv[0], f"-seed={seed}", "-max_len=4096", "-rss_limit_mb=2048"],
                  one_input)
    atheris.Fuzz()
    return tally


def have_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def report(tallies: list[Tally], engine: str) -> None:
    for t in tallies:
        print(f"{t.line()}  [{engine if t.target == 'framing' else 'hypothesis'}]")
        print(f"          slowest case: {t.slowest_case}")
    if len(tallies) > 1:
        print(f"{'total':<9} cases {sum(t.cases for t in tallies):>7}  crashes "
              f"{sum(t.crashes for t in tallies)}  slowest "
              f"{max(t.slowest_ms for t in tallies):8.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", choices=list(DEFAULT_CASES),
                    help="a target to run (repeatable; default all four)")
    ap.add_argument("--cases", type=int, help="cases per target (default: DEFAULT_CASES)")
    ap.add_argument("--seed", type=int, default=random.SystemRandom().randrange(2**31))
    ap.add_argument("--engine", choices=("auto", "hypothesis", "atheris"), default="auto",
                    help="for the framing target (the others always use Hypothesis)")
    args = ap.parse_args()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PITH_LOG", "CRITICAL")   # internal errors are counted, not logged
    import logging
    logging.basicConfig(level=logging.CRITICAL)
    targets = args.target or list(DEFAULT_CASES)
    engine = args.engine
    if engine == "auto":
        engine = "atheris" if have_atheris() else "hypothesis"
    print(f"pith fuzz: seed {args.seed}, framing engine {engine}, crashes to {OUT_DIR}",
          flush=True)
    tallies = []
    for name in targets:
        cases = args.cases or DEFAULT_CASES[name]
        if name == "framing" and engine == "atheris":
            # libFuzzer owns its process until the last case: run it in a child
            proc = subprocess.run([sys.executable, "-c", CHILD, str(cases), str(args.seed)],
                                  stdout=subprocess.PIPE, text=True)
            print(proc.stdout, end="", flush=True)
            tally = Tally("framing")
            tally.cases, tally.crashes, tally.slowest_ms = _parse_child(proc.stdout)
            tally.slowest_case = "(see above)"
            tallies.append(tally)
            continue
        print(f"{name}: {cases} cases", flush=True)
        tallies.append(run_hypothesis(name, cases, args.seed))
    print()
    report(tallies, engine)
    return 1 if any(t.crashes for t in tallies) else 0


# The atheris child: this file imported as a module, then its run_atheris.
CHILD = ("import sys; sys.path.insert(0, %r); import fuzz; "
         "fuzz.OUT_DIR.mkdir(parents=True, exist_ok=True); "
         "fuzz.run_atheris(int(sys.argv[1]), int(sys.argv[2]))" % str(TESTS))


def _parse_child(out: str) -> tuple[int, int, float]:
    """(cases, crashes, slowest ms) from the child's last figures line."""
    for line in reversed(out.splitlines()):
        parts = line.split()
        if parts[:2] == ["framing", "cases"]:
            return int(parts[2]), int(parts[4]), float(parts[6])
    return 0, 0, 0.0


if __name__ == "__main__":
    raise SystemExit(main())
