"""Pith's error tree: every failure carries a stable numeric code and a name.

Codes are part of the wire contract (host/PROTOCOL.md) and of the CLI's one-line
messages. A code is never renumbered or reused; retire a code by leaving it in
place and adding a new one.
"""
from __future__ import annotations


class PithError(Exception):
    """Base of every error Pith reports on purpose; `code` and `name` are stable."""

    code = 1
    name = "internal"

    def __init__(self, message: str, **detail):
        super().__init__(message)
        self.message = message
        self.detail = detail

    def to_wire(self) -> dict:
        """The `error` object of a protocol reply."""
        out = {"code": self.code, "name": self.name, "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        return out

    def __str__(self) -> str:
        return f"{self.name} ({self.code}): {self.message}"


class InternalError(PithError):
    """A bug: something raised that Pith did not expect."""
    code, name = 1, "internal"


# --- framing (bytes on the pipe) -------------------------------------------------
class FrameTruncated(PithError):
    code, name = 10, "frame_truncated"


class FrameTooLarge(PithError):
    code, name = 11, "frame_too_large"


class FrameNotUtf8(PithError):
    code, name = 12, "frame_not_utf8"


class FrameNotJson(PithError):
    code, name = 13, "frame_not_json"


class FrameBadNumber(PithError):
    """A number in a frame body is beyond a double (1e400): JSON's grammar allows it, but
    read as Infinity it could not be answered; the host refuses it."""
    code, name = 14, "frame_bad_number"


class FrameTooDeep(PithError):
    """A frame body nests arrays and objects deeper than the host reads (shape.MAX_DEPTH)."""
    code, name = 15, "frame_too_deep"


class FrameTooComplex(PithError):
    """A frame body would take more memory once decoded than the host allows
    (shape.MAX_DECODED_BYTES, estimated from its bytes before decoding)."""
    code, name = 16, "frame_too_complex"


# --- protocol (meaning of a message) ---------------------------------------------
class BadEnvelope(PithError):
    code, name = 20, "bad_envelope"


class UnsupportedVersion(PithError):
    code, name = 21, "unsupported_version"


class UnknownAction(PithError):
    code, name = 22, "unknown_action"


class BadRequest(PithError):
    code, name = 23, "bad_request"


class ReplyTooLarge(PithError):
    code, name = 24, "reply_too_large"


class BadOptions(PithError):
    code, name = 25, "bad_options"


# --- snapshot (capture → host contract, host/SNAPSHOT.md) --------------------------
class SnapshotInvalid(PithError):
    code, name = 30, "snapshot_invalid"


class SnapshotVersion(PithError):
    code, name = 31, "snapshot_version"


class SnapshotOrder(PithError):
    """Parent indices not in preorder (`parent[i] < i`), which also rules out cycles."""
    code, name = 32, "snapshot_order"


class SnapshotTooLarge(PithError):
    code, name = 33, "snapshot_too_large"


# --- selection -----------------------------------------------------------------
class NoContent(PithError):
    """The page has no visible text to choose from."""
    code, name = 40, "no_content"


class BadNode(PithError):
    """A node id or path that does not exist in this snapshot, or cannot grow/shrink."""
    code, name = 41, "bad_node"


class ModelUnreadable(PithError):
    """A model file of the host (CLG's, the block model's, the page type's) is missing, not
    a model, or reads features this host does not compute (pipeline/modelfile.py)."""
    code, name = 42, "model_unreadable"


# --- inputs of the CLI -----------------------------------------------------------
class InputNotFound(PithError):
    code, name = 50, "input_not_found"


class InputNotHtml(PithError):
    code, name = 51, "input_not_html"


class InputEmpty(PithError):
    code, name = 52, "input_empty"


class InputDecode(PithError):
    code, name = 53, "input_decode"


class FetchFailed(PithError):
    code, name = 54, "fetch_failed"


class BrowserMissing(PithError):
    code, name = 55, "browser_missing"


class BrowserFailed(PithError):
    code, name = 56, "browser_failed"


class CaptureFailed(PithError):
    code, name = 57, "capture_failed"


class Timeout(PithError):
    code, name = 58, "timeout"


class InputUnsupported(PithError):
    """An input Pith does not read: a URL scheme other than http(s) and file (ftp:, data:,
    javascript:), or a path that is no regular file or folder (a FIFO, socket or device,
    refused before it is opened: reading one may never end)."""
    code, name = 59, "input_unsupported"


# --- inputs of the CLI, continued (50-59 are taken) -------------------------------------
class InputUnreadable(PithError):
    """An input file that exists but may not be read (permission denied), or cannot be (a
    loop of symbolic links, an I/O error)."""
    code, name = 100, "input_unreadable"


# --- the extension (reported by the browser side, never by pith-host) ----------------
class HostNotInstalled(PithError):
    """The browser found no registration of dev.pith.host for this extension."""
    code, name = 60, "host_not_installed"


class HostExited(PithError):
    """The host process ended (crashed, killed or failed to start) with requests pending."""
    code, name = 61, "host_exited"


class HostTimeout(PithError):
    """The host did not answer a request in time; the extension stopped it."""
    code, name = 62, "host_timeout"


class HostIncompatible(PithError):
    """The host speaks another protocol version than the extension."""
    code, name = 63, "host_incompatible"


class PageForbidden(PithError):
    """The browser does not let extensions run scripts in this page."""
    code, name = 64, "page_forbidden"


class PageLoading(PithError):
    """The page has not finished parsing its document yet."""
    code, name = 65, "page_loading"


class NoSelection(PithError):
    """Grow, shrink or the reader was asked for on a tab with nothing selected."""
    code, name = 66, "no_selection"


class PageChanged(PithError):
    """The selected element is gone from the page (re-rendered or navigated)."""
    code, name = 67, "page_changed"


class BlockTooLarge(PithError):
    """The selected block is too large for the reader view's storage."""
    code, name = 68, "block_too_large"


class CannotRemember(PithError):
    """The selected block cannot be saved as a per-site rule (not a web page, no selector)."""
    code, name = 69, "cannot_remember"


# --- extension, continued (60-69 are taken) -------------------------------------------
class PageTooLarge(PithError):
    """The page's capture is over what native messaging carries to the host (64 MiB)."""
    code, name = 80, "page_too_large"


# --- resource limits the host enforces itself (host/PROTOCOL.md, "Limits") ----------
class RequestTooSlow(PithError):
    """A request ran past the host's time limit (options max_request_ms, max_grow_ms);
    the host cut it off and serves the next one."""
    code, name = 70, "request_too_slow"


# --- batch extraction (pith.batch): one record of a crawl, judged on its own -------------
class PageTimeLimit(PithError):
    """A batch record ran past the per-page time limit; its worker was stopped and replaced."""
    code, name = 90, "page_time_limit"


class PageMemoryLimit(PithError):
    """A batch record needed more memory than the per-page limit allows."""
    code, name = 91, "page_memory_limit"


class RecordDamaged(PithError):
    """A WARC record that does not end where its Content-Length says, a record, header or
    gzip member cut short, or bytes between records that are no record (batch/framing.py);
    one row each, the reader goes on at the next valid record."""
    code, name = 92, "record_damaged"


class WorkerCrashed(PithError):
    """A batch worker process died on a record (killed by the system, a crash in native
    code); the record is counted as failed and the worker replaced."""
    code, name = 93, "worker_crashed"


class ClusterWorkersDaemonic(PithError):
    """The Dask workers are daemonic processes (Dask's default), which may not start the
    process that runs each page under its limits; start them with
    DASK_DISTRIBUTED__WORKER__DAEMON=False or `dask worker --no-nanny`."""
    code, name = 94, "cluster_workers_daemonic"


def all_errors() -> list[type[PithError]]:
    """Every error class, for the code-table test and PROTOCOL.md."""
    seen, todo = [], [PithError]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            seen.append(sub)
            todo.append(sub)
    return sorted(seen, key=lambda c: c.code)
