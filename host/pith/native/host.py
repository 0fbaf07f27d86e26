"""The stdio loop of the native-messaging host (`pith-host`): frames in, replies out.

The browser starts this process and talks to it over stdin/stdout (host/PROTOCOL.md).
Stdout carries frames and nothing else: `claim_stdout` keeps the real stdout for frames
and points everything else that writes there (print, C extensions, child processes) at
stderr. Logging goes to stderr, level from the environment variable PITH_LOG.

Arguments are ignored: Chrome passes the caller's origin (and on Windows a
`--parent-window=` handle), Firefox the manifest path and the extension id.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import BinaryIO

from . import framing, protocol
from ..errors import PithError

log = logging.getLogger("pith.native.host")

# Environment variable with the log level name (DEBUG, INFO, WARNING, ERROR).
LOG_ENV = "PITH_LOG"

# Warnings and errors only unless asked: the browser keeps the host's stderr in its log.
DEFAULT_LOG_LEVEL = logging.WARNING

# Exit statuses: a clean end of input (the browser closed the port, or its pipe broke
# while we wrote) is a normal end; a stream we can no longer read frames from is not.
EXIT_OK = 0
EXIT_BROKEN_STREAM = 1


def serve(frames_in: BinaryIO, frames_out: BinaryIO,
          session: protocol.Session | None = None) -> int:
    """Read a frame, reply, repeat until the input ends; the exit status."""
    session = protocol.Session() if session is None else session
    while True:
        try:
            request = framing.read_frame(frames_in, framing.MAX_IN, session.reserve)
        except framing.UNRECOVERABLE as exc:
            log.error("cannot read frames any more: %s", exc)
            _send(frames_out, framing.encode_frame(protocol.error_reply(None, exc)))
            return EXIT_BROKEN_STREAM
        except PithError as exc:  # bad body, but the frame was consumed: still in sync
            log.warning("bad frame: %s", exc)
            if not _send(frames_out, framing.encode_frame(protocol.error_reply(None, exc))):
                return EXIT_OK
            continue
        if request is None:
            log.info("end of input")
            return EXIT_OK
        if not _send(frames_out, protocol.respond(request, session)):
            return EXIT_OK


def _send(frames_out: BinaryIO, frame: bytes) -> bool:
    """Write one frame and flush; False when the browser has closed the pipe."""
    try:
        frames_out.write(frame)
        frames_out.flush()
    except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
        log.info("the browser closed the pipe")
        return False
    return True


def claim_stdout() -> BinaryIO:
    """The real stdout as a binary stream for frames; stdout itself now goes to stderr.

    At the file-descriptor level (so C code and child processes cannot write to the pipe
    either) when stdout has one, else by swapping `sys.stdout`.
    """
    try:
        out_fd = sys.stdout.fileno()
        err_fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # no real descriptors (embedded, tests)
        frames_out = sys.stdout.buffer
        sys.stdout = sys.stderr
        return frames_out
    sys.stdout.flush()
    frames_fd = os.dup(out_fd)
    os.dup2(err_fd, out_fd)
    sys.stdout = sys.stderr
    _binary_mode(frames_fd)
    return os.fdopen(frames_fd, "wb")


def _binary_mode(stream_or_fd: BinaryIO | int) -> None:
    """On Windows, stop the C runtime from translating line ends inside frames."""
    if sys.platform == "win32":
        import msvcrt
        fd = stream_or_fd if isinstance(stream_or_fd, int) else stream_or_fd.fileno()
        msvcrt.setmode(fd, os.O_BINARY)


def setup_logging() -> None:
    """Log to stderr at the level named by PITH_LOG (default WARNING)."""
    name = os.environ.get(LOG_ENV, "").strip().upper()
    level = logging.getLevelName(name) if name else DEFAULT_LOG_LEVEL
    bad_name = not isinstance(level, int)
    logging.basicConfig(stream=sys.stderr, level=DEFAULT_LOG_LEVEL if bad_name else level,
                        format="pith-host %(levelname)s %(name)s: %(message)s")
    if bad_name:
        log.warning("%s=%r is not a log level; using WARNING", LOG_ENV, name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `pith-host` and `python -m pith.native.host`; returns the exit status."""
    frames_out = claim_stdout()
    setup_logging()
    args = sys.argv[1:] if argv is None else argv
    log.debug("started with arguments %r (ignored)", args)
    frames_in = sys.stdin.buffer
    _binary_mode(frames_in)
    if frames_in.isatty():
        log.warning("pith-host speaks native messaging on stdin/stdout and is started by "
                    "the browser; see host/PROTOCOL.md")
    try:
        return serve(frames_in, frames_out)
    finally:
        try:
            frames_out.close()
        except (BrokenPipeError, OSError):
            pass


if __name__ == "__main__":
    raise SystemExit(main())
