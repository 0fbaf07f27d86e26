"""Kills the native host a test talks to, as a crash would, whether or not it is still there."""
import os
import signal


def kill_host(pid: int) -> None:
    """SIGKILL the host `pid`. A host already gone is the same state for the test (the
    browser closed the port and reaped it between the hello that named it and the kill,
    as it can on a loaded machine): the next command must start a new one either way."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
