"""Runs `pith` with its stderr on a pseudo-terminal, as a user's shell would, and returns what it drew."""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Columns of the pseudo-terminal: tqdm sizes its bar to it.
COLUMNS = 100


def pith_on_a_terminal(args: list[str], timeout_s: float) -> tuple[int, bytes]:
    """(exit status, bytes drawn on the terminal) of `python -m pith ARGS`; stdout is
    discarded."""
    main_fd, term_fd = pty.openpty()
    fcntl.ioctl(term_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    chunks: list[bytes] = []

    def drain() -> None:        # read while it runs: a full terminal buffer would block it
        while True:
            try:
                chunk = os.read(main_fd, 4096)
            except OSError:     # the terminal's other end is closed: all read
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        proc = subprocess.run([sys.executable, "-m", "pith", *map(str, args)],
                              stdout=subprocess.DEVNULL, stderr=term_fd, timeout=timeout_s,
                              env={**os.environ, "PYTHONPATH": str(REPO / "host")})
    finally:
        os.close(term_fd)
        reader.join(10)
        os.close(main_fd)
    return proc.returncode, b"".join(chunks)
