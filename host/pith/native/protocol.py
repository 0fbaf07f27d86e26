"""Meaning of a message: check the envelope, run the named action, build the reply.

A request is `{"v": 1, "id": <string or int>, "action": "<name>", ...params}`; the reply
is `{"v": 1, "id": <same id>, "ok": true, "result": {...}}` or
`{"v": 1, "id": ..., "ok": false, "error": {"code", "name", "message"}}`
(host/PROTOCOL.md is the contract). `handle` turns a request dict into a reply dict and
never raises; `respond` also encodes the reply as a frame, replacing a reply the browser
would refuse (over `framing.MAX_OUT`) by an error. Bytes are `framing.py`'s job, the
stdio loop `host.py`'s. Each action that runs the pipeline does so within a time
limit (options `max_request_ms`, `max_grow_ms`; deadline.py says how).
"""
from __future__ import annotations

import logging
import os
import time
from collections import OrderedDict
from typing import Any, Callable, NamedTuple

from .. import PROTOCOL_VERSION, SNAPSHOT_VERSION, __version__
from . import deadline, framing
from ..errors import (BadEnvelope, BadRequest, InternalError, PithError, UnknownAction,
                     UnsupportedVersion)
from ..pipeline import footprint
from ..pipeline.options import ALGORITHMS, Options

log = logging.getLogger("pith.native.protocol")

# Selections kept for `grow`/`shrink`: one per recently extracted page, enough for a
# reader adjusting a handful of tabs, while each entry holds a whole snapshot's arrays.
CACHE_SIZE = 8

# ... and at most this many bytes of them (the most recent one is kept whatever its
# size: its page is the one the reader is adjusting). An ordinary page's selection holds
# a few MB, a 200,000-element page's about 130 MB, a 1,000,000-element page's 600 MB:
# nine selects of such pages held 5.8 GB when the cache was bounded by count alone.
CACHE_BYTES = 512 * 2**20

# What a request may become, per byte of its frame: a select's kept selection holds about
# ten times its frame (a 1,000,000-element page: 62 MiB of frame, 600 MB of selection, and
# the decoded request about as much again while it runs). Before a frame is read the
# cache drops its least recently used selections until this much more fits: nine selects
# of such a page peaked at 1.8 GB when the last one's selection waited for the next to end.
BYTES_PER_FRAME_BYTE = 10

# Request ids are echoed in every reply; the extension uses a counter (or a UUID), so a
# longer id is a client bug that would only inflate replies.
MAX_ID_CHARS = 256

# Integer ids must survive a JavaScript number (IEEE double) without losing precision.
MAX_SAFE_ID = 2**53 - 1

# An internal error's message is a short hint (the traceback goes to stderr).
MAX_INTERNAL_MESSAGE = 200

# Any error's message and string details are cut to this many characters: they may quote
# the request (a 2 MB action name made `unknown_action` a `reply_too_large`).
MAX_ERROR_CHARS = 1000

# Prefix of the document tokens of `select` replies: "d1", "d2", ...
DOC_PREFIX = "d"

# The envelope's own keys; every other key of a request is a parameter of its action.
ENVELOPE_KEYS = ("v", "id", "action")


def size_of(selection: Any) -> int:
    """Bytes a cached selection holds (its own `nbytes` when it has one)."""
    nbytes = getattr(selection, "nbytes", None)
    return int(nbytes()) if callable(nbytes) else footprint.of(selection)


class Session:
    """State of one host process: the last CACHE_SIZE selections, by document token,
    holding at most CACHE_BYTES (least recently used dropped first)."""

    def __init__(self, cache_size: int = CACHE_SIZE, cache_bytes: int = CACHE_BYTES):
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self._docs: OrderedDict[str, Any] = OrderedDict()
        self._bytes: dict[str, int] = {}
        self._issued = 0

    def remember(self, selection: Any) -> str:
        """Keep `selection`, dropping the least recently used ones over the bounds; its
        new token."""
        self._issued += 1
        token = f"{DOC_PREFIX}{self._issued}"
        self._docs[token] = selection
        self.measure(token)
        return token

    def measure(self, token: str) -> None:
        """Count `token`'s selection again (grow, shrink and clean add to it), then drop
        the least recently used others while the cache is over a bound."""
        if token in self._docs:
            self._bytes[token] = size_of(self._docs[token])
        while len(self._docs) > 1 and (len(self._docs) > self.cache_size
                                       or self.held() > self.cache_bytes):
            dropped, _ = self._docs.popitem(last=False)
            self._bytes.pop(dropped, None)
            log.debug("dropped document %s from the cache", dropped)

    def reserve(self, frame_bytes: int) -> None:
        """Make room for a request of `frame_bytes` before it is read: drop the least
        recently used selections (the freshest too) while the cache and what the
        request may become (BYTES_PER_FRAME_BYTE per byte) are over `cache_bytes`."""
        need = BYTES_PER_FRAME_BYTE * frame_bytes
        while self._docs and self.held() + need > self.cache_bytes:
            dropped, _ = self._docs.popitem(last=False)
            self._bytes.pop(dropped, None)
            log.debug("dropped document %s from the cache for a %d-byte frame", dropped,
                      frame_bytes)

    def held(self) -> int:
        """Bytes the cached selections hold, as last measured."""
        return sum(self._bytes.values())

    def recall(self, token: str) -> Any:
        """The selection of `token` (now the most recently used); BadRequest if gone."""
        try:
            self._docs.move_to_end(token)
        except KeyError:
            raise BadRequest(
                f"document {token!r} is no longer cached (the host keeps the last "
                f"{self.cache_size}); re-run select", doc=token) from None
        return self._docs[token]

    def cached(self) -> list[str]:
        """The tokens kept, least recently used first."""
        return list(self._docs)


# --- parameters ----------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    """A JSON integer (Python's bool is an int, JSON's true is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _node(params: dict, key: str = "node") -> int:
    """A required node id: a non-negative integer (its range is checked by select)."""
    if key not in params:
        raise BadRequest(f"missing parameter {key!r}", param=key)
    value = params[key]
    if not _is_int(value) or value < 0:
        raise BadRequest(f"parameter {key!r} must be a non-negative integer", param=key)
    return value


def _doc(params: dict) -> str:
    """A required document token from an earlier `select` reply."""
    value = params.get("doc")
    if not isinstance(value, str):
        raise BadRequest("parameter 'doc' must be the token of a select reply",
                         param="doc")
    return value


def _rows(params: dict, key: str) -> list[int]:
    """An optional list of node ids (default empty)."""
    value = params.get(key, [])
    if not isinstance(value, list) or not all(_is_int(v) and v >= 0 for v in value):
        raise BadRequest(f"parameter {key!r} must be a list of non-negative integers",
                         param=key)
    return value


def _trail(params: dict) -> list[int]:
    """The optional `trail` of `shrink`: node ids grown from, most recent last."""
    return _rows(params, "trail")


# --- actions -------------------------------------------------------------------------
def do_hello(params: dict, session: Session) -> dict:
    """Who the host is and what it can do; the extension calls it once per port."""
    return {
        "host": "pith",
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "snapshot": SNAPSHOT_VERSION,
        "actions": list(ACTIONS),
        "limits": {"max_in": framing.MAX_IN, "max_out": framing.MAX_OUT,
                   "cache": session.cache_size, "cache_bytes": session.cache_bytes},
        "algorithms": list(ALGORITHMS),
        "options": Options().describe(),
        "pid": os.getpid(),
    }


def do_echo(params: dict, session: Session) -> dict:
    """The request's `data`, unchanged, for round-trip measurement."""
    return {"echo": params.get("data")}


def do_select(params: dict, session: Session) -> dict:
    """Choose the main block of `snapshot` (host/SNAPSHOT.md) with `options` overrides."""
    snapshot = params.get("snapshot")
    if not isinstance(snapshot, dict):
        raise BadRequest("parameter 'snapshot' must be an object (host/SNAPSHOT.md)",
                         param="snapshot")
    options = Options.from_overrides(params.get("options"))
    pin = _node(params, "pin") if params.get("pin") is not None else None
    from ..pipeline.select import select  # lazily: the pipeline is heavy and hello must be fast
    with deadline.within(options.max_request_ms, "select"):
        selection = select(snapshot, options, pin, consume=True)
    return {**selection.to_wire(), "doc": session.remember(selection)}


def do_grow(params: dict, session: Session) -> dict:
    """The parent block of `node` in the document `doc` of an earlier select."""
    token, node = _doc(params), _node(params)
    selection = session.recall(token)
    from ..pipeline.select import grow
    with deadline.within(selection.options.max_grow_ms, "grow", "max_grow_ms"):
        out = {**grow(selection, node), "doc": token}
    session.measure(token)
    return out


def do_shrink(params: dict, session: Session) -> dict:
    """The best child block of `node`; `trail` (grown-from nodes) is retraced first."""
    token, node, trail = _doc(params), _node(params), _trail(params)
    selection = session.recall(token)
    from ..pipeline.select import shrink
    with deadline.within(selection.options.max_grow_ms, "shrink", "max_grow_ms"):
        out = {**shrink(selection, node, trail), "doc": token}
    session.measure(token)
    return out


def do_clean(params: dict, session: Session) -> dict:
    """What the reader view leaves out of `node`: the blocks the block stage drops (with
    the reader's own `include` / `exclude` rows), link lists, ads, forms, hidden rows."""
    token, node = _doc(params), _node(params)
    include, exclude = _rows(params, "include"), _rows(params, "exclude")
    selection = session.recall(token)
    from ..pipeline.select import reader_view
    with deadline.within(selection.options.max_request_ms, "clean"):
        out = {**reader_view(selection, node, include, exclude), "doc": token}
    session.measure(token)
    return out


class Action(NamedTuple):
    """One entry of the dispatch table: what runs and which parameters it accepts."""
    run: Callable[[dict, Session], dict]
    params: tuple[str, ...]


ACTIONS: dict[str, Action] = {
    "hello": Action(do_hello, ()),
    "echo": Action(do_echo, ("data",)),
    "select": Action(do_select, ("snapshot", "options", "pin")),
    "grow": Action(do_grow, ("doc", "node")),
    "shrink": Action(do_shrink, ("doc", "node", "trail")),
    "clean": Action(do_clean, ("doc", "node", "include", "exclude")),
}


# --- envelope and replies ------------------------------------------------------------
def request_id(request: Any) -> str | int | None:
    """The request's id if it is a valid one, else None (the reply then carries null)."""
    if not isinstance(request, dict):
        return None
    value = request.get("id")
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS:
        return value
    if _is_int(value) and abs(value) <= MAX_SAFE_ID:
        return value
    return None


def check_envelope(request: Any) -> tuple[Action, dict]:
    """The action to run and its parameters; BadEnvelope / UnsupportedVersion /
    UnknownAction / BadRequest (unknown parameter) otherwise."""
    if not isinstance(request, dict):
        raise BadEnvelope("a request must be a JSON object")
    if "v" not in request:
        raise BadEnvelope("missing 'v' (the protocol version)")
    if not _is_int(request["v"]):
        raise BadEnvelope("'v' must be an integer")
    if request["v"] != PROTOCOL_VERSION:
        raise UnsupportedVersion(
            f"this host speaks protocol v{PROTOCOL_VERSION}, the request is "
            f"v{request['v']}", host=PROTOCOL_VERSION)
    if "id" not in request:
        raise BadEnvelope("missing 'id'")
    if request_id(request) is None:
        raise BadEnvelope(
            f"'id' must be a string of at most {MAX_ID_CHARS} characters or an integer "
            f"of magnitude at most 2^53-1")
    name = request.get("action")
    if not isinstance(name, str):
        raise BadEnvelope("'action' must be a string")
    action = ACTIONS.get(name)
    if action is None:
        raise UnknownAction(f"unknown action {name!r}; this host knows "
                            f"{', '.join(ACTIONS)}", action=name)
    params = {k: v for k, v in request.items() if k not in ENVELOPE_KEYS}
    for key in params:
        if key not in action.params:
            accepted = ", ".join(action.params) or "none"
            raise BadRequest(f"unknown parameter {key!r} for {name} (accepted: {accepted})",
                             param=key)
    return action, params


def ok_reply(rid: str | int | None, result: dict) -> dict:
    """A success reply."""
    return {"v": PROTOCOL_VERSION, "id": rid, "ok": True, "result": result}


def error_reply(rid: str | int | None, error: PithError) -> dict:
    """An error reply; `rid` is None when the request's id is unknown. Its message and
    string details are cut to MAX_ERROR_CHARS: they quote what was sent (an unknown
    action's or option's name), which must not make the error itself too large."""
    wire = error.to_wire()
    wire["message"] = _cut(wire["message"])
    if "detail" in wire:
        wire["detail"] = {k: _cut(v) if isinstance(v, str) else v
                          for k, v in wire["detail"].items()}
    return {"v": PROTOCOL_VERSION, "id": rid, "ok": False, "error": wire}


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 1] + "…"


def internal_error(exc: BaseException, context: str) -> InternalError:
    """A short InternalError for an unexpected exception; the traceback goes to the log."""
    log.error("unexpected error %s", context, exc_info=exc)
    message = f"{type(exc).__name__} {context}: {exc}"
    if len(message) > MAX_INTERNAL_MESSAGE:
        message = message[:MAX_INTERNAL_MESSAGE - 1] + "…"
    return InternalError(message)


def handle(request: Any, session: Session) -> dict:
    """The reply to one decoded request. Never raises (bugs become InternalError)."""
    rid = request_id(request)
    started = time.perf_counter()
    try:
        action, params = check_envelope(request)
        reply = ok_reply(rid, action.run(params, session))
    except PithError as exc:
        reply = error_reply(rid, exc)
    except Exception as exc:  # a bug: report it, keep serving
        name = request.get("action") if isinstance(request, dict) else None
        reply = error_reply(rid, internal_error(exc, f"while handling {name!r}"))
    if log.isEnabledFor(logging.DEBUG):
        name = request.get("action") if isinstance(request, dict) else None
        log.debug("%s id=%r ok=%s in %.1f ms", name, rid, reply["ok"],
                  (time.perf_counter() - started) * 1000)
    return reply


def encode_reply(reply: dict) -> bytes:
    """`reply` as a frame, or an error frame with the same id when it cannot be sent
    (over MAX_OUT: ReplyTooLarge; not JSON-able: InternalError)."""
    try:
        return framing.encode_frame(reply)
    except PithError as exc:
        log.warning("reply to id=%r refused: %s", reply.get("id"), exc)
        return framing.encode_frame(error_reply(reply.get("id"), exc))
    except Exception as exc:  # a result that is not JSON (NaN, a numpy value, ...)
        err = internal_error(exc, "while encoding the reply")
        return framing.encode_frame(error_reply(reply.get("id"), err))


def respond(request: Any, session: Session) -> bytes:
    """The reply frame for one decoded request: `handle` + `encode_reply`."""
    return encode_reply(handle(request, session))
