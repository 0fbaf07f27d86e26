"""Protocol: envelope checks, dispatch, replies and the documented error table."""
import dataclasses
import io
import json
import logging
import os
import re
import struct
import sys
import types
from pathlib import Path

import pytest

import pith
from pith.native import framing, protocol
from pith.errors import BadNode
from pith.pipeline.options import ALGORITHMS, Options

PROTOCOL_MD = Path(__file__).resolve().parents[1] / "host" / "PROTOCOL.md"


def req(action, id=7, **params):
    return {"v": 1, "id": id, "action": action, **params}


def call(request, session=None):
    return protocol.handle(request, protocol.Session() if session is None else session)


def error_of(reply):
    assert reply["ok"] is False, reply
    assert set(reply) == {"v", "id", "ok", "error"}
    return reply["error"]


def decode(frame: bytes) -> dict:
    return framing.read_frame(io.BytesIO(frame))


# --- envelope ------------------------------------------------------------------------
@pytest.mark.parametrize("request_, fragment", [
    ([], "JSON object"),
    ("hello", "JSON object"),
    ({"v": 1, "action": "hello"}, "missing 'id'"),
    ({"v": 1, "id": None, "action": "hello"}, "'id' must be"),
    ({"v": 1, "id": 1.5, "action": "hello"}, "'id' must be"),
    ({"v": 1, "id": True, "action": "hello"}, "'id' must be"),
    ({"v": 1, "id": [1], "action": "hello"}, "'id' must be"),
    ({"v": 1, "id": "x" * (protocol.MAX_ID_CHARS + 1), "action": "hello"}, "'id' must be"),
    ({"v": 1, "id": 2**53, "action": "hello"}, "'id' must be"),
])
def test_bad_envelope_without_usable_id_replies_null(request_, fragment):
    reply = call(request_)
    err = error_of(reply)
    assert (err["code"], err["name"]) == (20, "bad_envelope")
    assert fragment in err["message"]
    assert reply["id"] is None and reply["v"] == 1


@pytest.mark.parametrize("request_, fragment", [
    ({"id": "r1", "action": "hello"}, "missing 'v'"),
    ({"v": "1", "id": "r1", "action": "hello"}, "'v' must be an integer"),
    ({"v": True, "id": "r1", "action": "hello"}, "'v' must be an integer"),
    ({"v": 1.0, "id": "r1", "action": "hello"}, "'v' must be an integer"),
    ({"v": None, "id": "r1", "action": "hello"}, "'v' must be an integer"),
])
def test_bad_version_field_keeps_the_id(request_, fragment):
    reply = call(request_)
    err = error_of(reply)
    assert (err["code"], err["name"]) == (20, "bad_envelope")
    assert fragment in err["message"]
    assert reply["id"] == "r1"


@pytest.mark.parametrize("action", [None, 3, ["hello"]])
def test_bad_action_type_keeps_the_id(action):
    reply = call({"v": 1, "id": "abc", "action": action})
    assert error_of(reply)["code"] == 20
    assert reply["id"] == "abc"


def test_missing_action_keeps_the_id():
    reply = call({"v": 1, "id": 3})
    assert error_of(reply)["code"] == 20 and reply["id"] == 3


@pytest.mark.parametrize("rid", [0, -1, 2**53 - 1, "", "req-1", "é😀"])
def test_valid_ids_are_echoed(rid):
    reply = call(req("hello", id=rid))
    assert reply["ok"] is True and reply["id"] == rid


@pytest.mark.parametrize("v", [0, 2, 99])
def test_version_mismatch(v):
    reply = call({"v": v, "id": 5, "action": "hello"})
    err = error_of(reply)
    assert (err["code"], err["name"]) == (21, "unsupported_version")
    assert f"v{pith.PROTOCOL_VERSION}" in err["message"] and f"v{v}" in err["message"]
    assert err["detail"] == {"host": pith.PROTOCOL_VERSION}
    assert reply["id"] == 5  # the client can still match it to its request


def test_unknown_action():
    reply = call(req("explode"))
    err = error_of(reply)
    assert (err["code"], err["name"]) == (22, "unknown_action")
    assert "explode" in err["message"] and "hello" in err["message"]
    assert reply["id"] == 7


def test_unknown_parameter_is_refused():
    err = error_of(call(req("echo", dta="typo")))
    assert err["code"] == 23 and "'dta'" in err["message"]
    err = error_of(call(req("hello", extra=1)))
    assert err["code"] == 23 and "accepted: none" in err["message"]


# --- hello and echo ------------------------------------------------------------------
def test_hello_fields():
    reply = call(req("hello"))
    assert set(reply) == {"v", "id", "ok", "result"}
    assert reply["v"] == 1 and reply["id"] == 7 and reply["ok"] is True
    result = reply["result"]
    assert result["host"] == "pith"
    assert result["version"] == pith.__version__
    assert result["protocol"] == pith.PROTOCOL_VERSION == 1
    assert result["snapshot"] == pith.SNAPSHOT_VERSION
    assert result["actions"] == ["hello", "echo", "select", "grow", "shrink", "clean"]
    assert result["limits"] == {"max_in": framing.MAX_IN, "max_out": framing.MAX_OUT,
                                "cache": protocol.CACHE_SIZE, "cache_bytes": protocol.CACHE_BYTES}
    assert result["algorithms"] == list(ALGORITHMS)
    assert result["pid"] == os.getpid()
    options = {o["name"]: o for o in result["options"]}
    assert list(options) == [f.name for f in dataclasses.fields(Options)]
    assert options["algorithm"]["value"] == Options().algorithm
    assert options["algorithm"]["choices"] == list(ALGORITHMS)
    assert options["candidates"]["kind"] == "int" and options["candidates"]["lo"] == 0
    assert options["skip_hidden"]["kind"] == "bool"
    assert all(o["why"] for o in options.values())
    json.dumps(result)                      # all of it goes over the wire


@pytest.mark.parametrize("data", ["héllo 😀", 42, None, [1, {"a": [True, None]}],
                                  {"nested": {"deep": "ü"}}])
def test_echo(data):
    reply = call(req("echo", data=data))
    assert reply == {"v": 1, "id": 7, "ok": True, "result": {"echo": data}}


def test_echo_without_data_is_null():
    assert call(req("echo"))["result"] == {"echo": None}


def test_echo_over_reply_limit_becomes_error_with_same_id():
    frame = protocol.respond(req("echo", id="big", data="x" * framing.MAX_OUT),
                             protocol.Session())
    reply = decode(frame)
    err = error_of(reply)
    assert (err["code"], err["name"]) == (24, "reply_too_large")
    assert reply["id"] == "big"
    assert len(frame) < 1000


def test_echo_just_under_reply_limit_goes_through():
    overhead = len(protocol.respond(req("echo", id=1, data=""), protocol.Session())) - 4
    data = "x" * (framing.MAX_OUT - overhead)
    reply = decode(protocol.respond(req("echo", id=1, data=data), protocol.Session()))
    assert reply["ok"] is True and reply["result"]["echo"] == data


# --- select / grow / shrink with a stand-in pipeline ----------------------------------
class FakeSelection:
    def __init__(self, snapshot, options):
        self.snapshot, self.options = snapshot, options

    def to_wire(self):
        return {"node": 1, "path": [0], "score": 0.5, "url": self.snapshot.get("url")}


@pytest.fixture
def fake_select(monkeypatch):
    """A stand-in `pith.pipeline.select` recording calls, so dispatch is tested on its own."""
    calls = []
    module = types.ModuleType("pith.pipeline.select")

    def select(snapshot, options, pin=None, consume=False):
        calls.append(("select", snapshot, options))
        if snapshot.get("explode"):
            raise RuntimeError("boom " + "y" * 1000)
        return FakeSelection(snapshot, options)

    def grow(selection, node):
        calls.append(("grow", selection, node))
        if node > 100:
            raise BadNode(f"node {node} does not exist")
        return {"node": node - 1}

    def shrink(selection, node, trail):
        calls.append(("shrink", selection, node, trail))
        return {"node": trail[-1] if trail else node + 1}

    module.select, module.grow, module.shrink = select, grow, shrink
    monkeypatch.setitem(sys.modules, "pith.pipeline.select", module)
    return calls


def test_select_passes_validated_options_and_returns_a_doc(fake_select):
    session = protocol.Session()
    reply = call(req("select", snapshot={"url": "u1"}, options={"candidates": 3}), session)
    assert reply["ok"] is True, reply
    assert reply["result"] == {"node": 1, "path": [0], "score": 0.5, "url": "u1",
                               "doc": "d1"}
    (_, snapshot, options), = fake_select
    assert snapshot == {"url": "u1"}
    assert isinstance(options, pith.pipeline.options.Options) and options.candidates == 3
    assert call(req("select", snapshot={}), session)["result"]["doc"] == "d2"


def test_select_without_options_uses_defaults(fake_select):
    reply = call(req("select", snapshot={}, options=None))
    assert reply["ok"] is True
    assert fake_select[0][2] == pith.pipeline.options.Options()


@pytest.mark.parametrize("options, fragment", [
    ({"nope": 1}, "unknown option 'nope'"),
    ({"candidates": "5"}, "must be an integer"),
    ({"algorithm": "magic"}, "must be one of"),
    ([1, 2], "options must be an object"),
])
def test_bad_options_is_code_25(options, fragment):
    # No stand-in needed: options are validated before the pipeline is imported.
    err = error_of(call(req("select", snapshot={}, options=options)))
    assert (err["code"], err["name"]) == (25, "bad_options")
    assert fragment in err["message"]


@pytest.mark.parametrize("params", [{}, {"snapshot": None}, {"snapshot": [1]},
                                    {"snapshot": "html"}])
def test_select_needs_a_snapshot_object(params):
    err = error_of(call(req("select", **params)))
    assert err["code"] == 23 and "snapshot" in err["message"]


def test_grow_and_shrink_use_the_cached_selection(fake_select):
    session = protocol.Session()
    doc = call(req("select", snapshot={"url": "a"}), session)["result"]["doc"]
    grown = call(req("grow", doc=doc, node=5), session)
    assert grown["ok"] and grown["result"] == {"node": 4, "doc": doc}
    shrunk = call(req("shrink", doc=doc, node=4, trail=[9, 5]), session)
    assert shrunk["result"] == {"node": 5, "doc": doc}
    default_trail = call(req("shrink", doc=doc, node=4), session)
    assert default_trail["result"] == {"node": 5, "doc": doc}
    assert [c[0] for c in fake_select] == ["select", "grow", "shrink", "shrink"]
    assert all(isinstance(c[1], FakeSelection) and c[1].snapshot == {"url": "a"}
               for c in fake_select[1:])
    assert fake_select[1][2] == 5
    assert fake_select[2][2:] == (4, [9, 5]) and fake_select[3][2:] == (4, [])


def test_errors_of_the_pipeline_pass_through(fake_select):
    session = protocol.Session()
    doc = call(req("select", snapshot={}), session)["result"]["doc"]
    err = error_of(call(req("grow", doc=doc, node=500), session))
    assert (err["code"], err["name"]) == (41, "bad_node")


@pytest.mark.parametrize("params, param", [
    ({"node": 1}, "doc"),
    ({"doc": 1, "node": 1}, "doc"),
    ({"doc": "d1"}, "node"),
    ({"doc": "d1", "node": -1}, "node"),
    ({"doc": "d1", "node": "3"}, "node"),
    ({"doc": "d1", "node": True}, "node"),
    ({"doc": "d1", "node": 1.0}, "node"),
])
@pytest.mark.parametrize("action", ["grow", "shrink"])
def test_grow_shrink_parameters(fake_select, action, params, param):
    session = protocol.Session()
    call(req("select", snapshot={}), session)
    err = error_of(call(req(action, **params), session))
    assert err["code"] == 23 and err["detail"] == {"param": param}


@pytest.mark.parametrize("trail", [5, [1, "2"], [-1], [True], None])
def test_shrink_trail_must_be_node_ids(fake_select, trail):
    session = protocol.Session()
    call(req("select", snapshot={}), session)
    err = error_of(call(req("shrink", doc="d1", node=1, trail=trail), session))
    assert err["code"] == 23 and err["detail"] == {"param": "trail"}


def test_unknown_doc_says_rerun_select(fake_select):
    err = error_of(call(req("grow", doc="d99", node=1)))
    assert err["code"] == 23
    assert "no longer cached" in err["message"] and "re-run select" in err["message"]


def test_cache_keeps_the_last_eight_by_use(fake_select):
    session = protocol.Session()
    docs = [call(req("select", snapshot={"i": i}), session)["result"]["doc"]
            for i in range(protocol.CACHE_SIZE)]
    assert docs == [f"d{i}" for i in range(1, protocol.CACHE_SIZE + 1)]
    assert call(req("grow", doc="d1", node=3), session)["ok"]  # d1 is now the freshest
    call(req("select", snapshot={}), session)  # d9 evicts the least recently used: d2
    assert len(session.cached()) == protocol.CACHE_SIZE
    assert session.cached()[-1] == "d9"
    assert call(req("grow", doc="d1", node=3), session)["ok"]
    assert error_of(call(req("grow", doc="d2", node=3), session))["code"] == 23
    assert call(req("grow", doc="d9", node=3), session)["ok"]


class Sized:
    """A cached selection of a known size, which grows when asked to (as the block-stage
    answers a grow adds to a real Selection)."""

    def __init__(self, size):
        self.size = size

    def nbytes(self):
        return self.size


def test_cache_is_bounded_by_bytes_dropping_the_least_recently_used():
    session = protocol.Session(cache_bytes=1000)
    d1, d2 = session.remember(Sized(400)), session.remember(Sized(400))
    assert session.cached() == [d1, d2] and session.held() == 800
    session.recall(d1)                                   # d1 is now the freshest
    d3 = session.remember(Sized(400))                    # 1200 > 1000: d2 goes
    assert session.cached() == [d1, d3] and session.held() == 800
    d4 = session.remember(Sized(5000))                   # alone over the bound: kept alone
    assert session.cached() == [d4] and session.held() == 5000


def test_a_selection_that_grows_is_counted_again_and_others_make_room():
    session = protocol.Session(cache_bytes=1000)
    small, big = Sized(300), Sized(300)
    d1, d2 = session.remember(small), session.remember(big)
    big.size = 900                                       # a grow added its answers
    session.measure(d2)
    assert session.cached() == [d2] and session.held() == 900


def test_a_real_select_is_cached_by_what_it_holds():
    """Nine selects of a page whose selection holds more than a ninth of the bound keep
    only what fits; every grow of the freshest works."""
    from test_host import many_sections
    snap = json.dumps(many_sections(2000))
    session = protocol.Session()
    first = call(req("select", snapshot=json.loads(snap)), session)["result"]
    size = protocol.size_of(session.recall(first["doc"]))
    assert 1_000_000 < size < 50_000_000       # ~6,000 rows: a few MB, not bytes or GB
    session.cache_bytes = int(size * 2.5)
    for _ in range(8):
        doc = call(req("select", snapshot=json.loads(snap)), session)["result"]["doc"]
    assert len(session.cached()) == 2 and session.held() <= session.cache_bytes
    assert call(req("grow", doc=doc, node=3), session)["ok"]


def test_failed_select_is_not_cached(fake_select):
    session = protocol.Session()
    call(req("select", snapshot={"explode": True}), session)
    assert session.cached() == []
    assert call(req("select", snapshot={}), session)["result"]["doc"] == "d1"


def test_unexpected_exception_is_a_short_internal_error(fake_select, caplog):
    with caplog.at_level(logging.ERROR, logger="pith.native.protocol"):
        reply = call(req("select", snapshot={"explode": True}))
    err = error_of(reply)
    assert (err["code"], err["name"]) == (1, "internal")
    assert err["message"].startswith("RuntimeError while handling 'select': boom")
    assert len(err["message"]) <= protocol.MAX_INTERNAL_MESSAGE
    assert "Traceback" not in err["message"]
    assert reply["id"] == 7
    assert "Traceback" in caplog.text  # the traceback is logged, not sent


def test_result_that_is_not_json_becomes_internal_error(monkeypatch):
    monkeypatch.setitem(protocol.ACTIONS, "echo",
                        protocol.Action(lambda p, s: {"score": float("nan")}, ("data",)))
    reply = decode(protocol.respond(req("echo", id="n"), protocol.Session()))
    err = error_of(reply)
    assert err["code"] == 1 and "encoding the reply" in err["message"]
    assert reply["id"] == "n"


# --- the real pipeline (skipped until pith/pipeline/select.py exists) ---------------------------
def tiny_snapshot():
    """html > (head > title), (body > nav > a a), (article > h1, p, p), footer."""
    tags = ["html", "head", "title", "body", "nav", "a", "a", "article", "h1", "p", "p",
            "footer"]
    parent = [-1, 0, 1, 0, 3, 4, 4, 3, 7, 7, 7, 3]
    text = ["", "", "Tiny", "", "", "Home", "About", "", "A headline",
            "The first paragraph of the article has a good deal of plain text in it, "
            "enough to be chosen over the menu by any reasonable method.",
            "A second paragraph continues the story with more sentences of text, so the "
            "article block is clearly the densest content on this little page.",
            "© 2024"]
    n = len(tags)
    link = [1 if t == "a" else 0 for t in tags]
    return {
        "v": 1, "url": "https://example.org/a.html", "title": "Tiny", "lang": "en",
        "layout": False, "viewport": [0, 0], "page": [0, 0], "capture_ms": 0.0, "n": n,
        "nodes": {
            "tag": tags, "parent": parent, "text": text, "tail": [""] * n, "link": link,
            "id": [""] * n, "cls": [""] * n, "role": [""] * n,
            "host": ["example.org" if l else "" for l in link],
            "url": ["https://example.org/" if l else "" for l in link], "alt": [""] * n,
            "x": [0] * n, "y": [0] * n, "w": [0] * n, "h": [0] * n, "hidden": [0] * n,
            "fs": [32 if t == "h1" else 16 for t in tags],
            "fw": [700 if t == "h1" else 400 for t in tags],
            "color": [""] * n, "frame": [0] * n,
        },
        "warnings": [],
    }


def test_real_select_grow_shrink_round_trip():
    session = protocol.Session()
    snap = tiny_snapshot()
    reply = decode(protocol.respond(req("select", snapshot=tiny_snapshot()), session))
    assert reply["ok"] is True, reply
    result = reply["result"]
    assert result["doc"] == "d1"
    node = result["node"]
    assert snap["nodes"]["tag"][node] == "article"
    grown = decode(protocol.respond(req("grow", doc="d1", node=node), session))
    assert grown["ok"] is True, grown
    assert grown["result"]["node"] == snap["nodes"]["parent"][node]
    back = decode(protocol.respond(
        req("shrink", doc="d1", node=grown["result"]["node"], trail=[node]), session))
    assert back["ok"] is True, back
    assert back["result"]["node"] == node


def test_real_select_with_a_pin_chooses_that_row():
    session = protocol.Session()
    snap = tiny_snapshot()
    p = snap["nodes"]["tag"].index("p")
    result = call(req("select", snapshot=tiny_snapshot(), pin=p), session)["result"]
    assert result["node"] == p and result["pinned"] is True
    unpinned = call(req("select", snapshot=tiny_snapshot(), pin=None), session)["result"]
    assert unpinned["pinned"] is False and unpinned["node"] != p
    err = error_of(call(req("select", snapshot=snap, pin=len(snap["nodes"]["tag"]))))
    assert err["code"] == 41
    err = error_of(call(req("select", snapshot=snap, pin="3")))
    assert err["code"] == 23 and err["detail"] == {"param": "pin"}


def test_real_clean_drops_the_menu_of_a_grown_block():
    session = protocol.Session()
    snap = tiny_snapshot()
    body = snap["nodes"]["tag"].index("body")
    nav = snap["nodes"]["tag"].index("nav")
    call(req("select", snapshot=tiny_snapshot()), session)
    reply = call(req("clean", doc="d1", node=body), session)
    assert reply["ok"] is True, reply
    result = reply["result"]
    assert result["node"] == body and result["doc"] == "d1"
    assert nav in result["drop"] and body not in result["drop"]
    assert {"text": "Home", "href": "https://example.org/"} in result["links"]
    assert error_of(call(req("clean", doc="d9", node=body), session))["code"] == 23
    assert error_of(call(req("clean", doc="d1", node=999), session))["code"] == 41


def test_real_select_refuses_a_broken_snapshot():
    snap = tiny_snapshot()
    snap["nodes"]["parent"][5] = 9  # not preorder
    err = error_of(call(req("select", snapshot=snap)))
    assert err["code"] in (30, 32)


# --- the written contract ----------------------------------------------------------
def test_every_action_is_documented():
    text = PROTOCOL_MD.read_text()
    for name in protocol.ACTIONS:
        assert re.search(rf"^### `{name}`", text, flags=re.MULTILINE), name


def test_documented_limits_match_the_code():
    text = PROTOCOL_MD.read_text()
    for value in (framing.MAX_IN, framing.MAX_OUT):
        assert f"{value:,}" in text or str(value) in text
    assert f"{protocol.CACHE_SIZE} " in text and str(protocol.CACHE_BYTES) in text


def json_examples() -> list[str]:
    return re.findall(r"```json\n(.*?)```", PROTOCOL_MD.read_text(), flags=re.DOTALL)


def test_documented_examples_are_json():
    examples = json_examples()
    assert len(examples) >= 10
    for block in examples:
        json.loads(block)


def test_documented_hello_reply_is_what_the_host_says():
    replies = [json.loads(b) for b in json_examples()]
    documented = next(r for r in replies if r.get("result", {}).get("host") == "pith")
    actual = call(req("hello", id=documented["id"]))
    documented["result"]["version"] = actual["result"]["version"]  # changes each release
    documented["result"]["pid"] = actual["result"]["pid"]          # changes each start
    shown = documented["result"].pop("options")                   # the first of them
    options = actual["result"].pop("options")
    assert shown == options[:len(shown)] and len(options) > len(shown)
    assert documented == actual


# --- page strings echoed into replies are cut (issue 34, finding 4) ---------------------
HUGE = 1_200_000     # characters: a page string larger than the browser's 1 MB reply limit


def hostile_strings_snapshot() -> dict:
    """tiny_snapshot with a 1.2 MB title and URL, and 1.2 MB tag, id and class on every
    element, and 1.2 MB link texts; what `select`, `grow`, `shrink` and `clean` echo."""
    snap = tiny_snapshot()
    nodes, n = snap["nodes"], len(snap["nodes"]["tag"])
    snap["title"] = "t" * HUGE
    snap["url"] = "https://example.org/" + "u" * HUGE
    nodes["id"] = [f"i{k}" + "\u00e9" * HUGE for k in range(n)]
    nodes["cls"] = ["c\x01" * (HUGE // 2)] * n          # escaped on the wire: 6 bytes each
    nodes["tag"] = [t if t in ("html", "body", "p", "a", "h1", "article", "nav")
                    else t + "-" + "x" * HUGE for t in nodes["tag"]]
    nodes["text"] = [t if not l else t + " " + "w" * HUGE
                     for t, l in zip(nodes["text"], nodes["link"])]
    nodes["url"][nodes["link"].index(1)] = "https://example.org/" + "q" * HUGE
    return snap


def test_a_page_with_huge_strings_still_selects_grows_shrinks_and_cleans():
    session = protocol.Session()
    frame = protocol.respond(req("select", snapshot=hostile_strings_snapshot(),
                                 options={"candidates": 100}), session)
    reply = decode(frame)
    assert reply["ok"] is True, reply.get("error")
    result = reply["result"]
    assert len(frame) < framing.MAX_OUT // 4
    assert result["title"].startswith("ttt") and result["title"].endswith("…")
    tags = tiny_snapshot()["nodes"]["tag"]
    body, nav = tags.index("body"), tags.index("nav")
    # grown from the body (the choice on this tiny page may be the root, which cannot grow)
    for action, params in (("grow", {"node": body}), ("shrink", {"node": 0}),
                           ("clean", {"node": body, "exclude": [nav]})):
        frame = protocol.respond(req(action, doc=result["doc"], **params), session)
        out = decode(frame)
        assert out["ok"] is True, (action, out.get("error"))
        assert len(frame) < framing.MAX_OUT // 4
    links = out["result"]["links"]
    assert [link["href"] for link in links] == ["https://example.org/"]   # the huge one left out
    assert all(len(link["text"]) <= 300 for link in links)


def test_the_chosen_elements_own_strings_are_cut_and_marked():
    from pith.pipeline.select import MAX_NAME_CHARS
    result = call(req("select", snapshot=hostile_strings_snapshot()))["result"]
    assert len(result["id"]) == len(result["cls"]) == MAX_NAME_CHARS
    assert result["id"].endswith("…") and result["cls"].endswith("…")
    assert result["url"].startswith("https://example.org/uuu")


@pytest.mark.parametrize("request_", [
    {"v": 1, "id": 1, "action": "x" * 2_000_000},
    {"v": 1, "id": 1, "action": "echo", "y" * 2_000_000: 1},
    {"v": 1, "id": 1, "action": "select", "snapshot": {}, "options": {"z" * 2_000_000: 1}},
])
def test_an_error_quoting_a_huge_name_keeps_its_code(request_):
    """Errors quote what was sent; a huge name must not turn them into reply_too_large."""
    frame = protocol.respond(request_, protocol.Session())
    err = error_of(decode(frame))
    assert err["code"] in (22, 23, 25) and len(frame) < 5000


def test_a_large_frame_makes_room_in_the_cache_before_it_is_read():
    """The cache drops what a large request may need before its body is read, the
    freshest selection too; a small one (a grow) drops nothing."""
    session = protocol.Session(cache_bytes=10_000)
    d1, d2 = session.remember(Sized(3000)), session.remember(Sized(3000))
    session.reserve(100)                        # 1,000 more: 7,000 fits
    assert session.cached() == [d1, d2]
    session.reserve(500)                        # 5,000 more: d1 goes, 8,000 fits
    assert session.cached() == [d2]
    session.reserve(1000)                       # 10,000 more: nothing may stay
    assert session.cached() == []


def test_the_host_reserves_room_for_each_frame_before_reading_its_body():
    from pith.native import host
    seen = []

    class Watching(protocol.Session):
        def reserve(self, frame_bytes):
            seen.append((frame_bytes, self.cached()))
            super().reserve(frame_bytes)
    body = json.dumps(req("echo", data="x" * 1000)).encode()
    stdin = io.BytesIO((struct.pack("=I", len(body)) + body) * 2)
    host.serve(stdin, io.BytesIO(), Watching())
    assert [n for n, _ in seen] == [len(body)] * 2


def test_echo_one_byte_over_the_reply_limit_is_reply_too_large():
    """SECURITY.md, "Limits": a reply body of MAX_OUT bytes goes, MAX_OUT + 1 does not."""
    overhead = len(protocol.respond(req("echo", id=1, data=""), protocol.Session())) - 4
    at = decode(protocol.respond(req("echo", id=1, data="x" * (framing.MAX_OUT - overhead)),
                                 protocol.Session()))
    over = decode(protocol.respond(req("echo", id=1, data="x" * (framing.MAX_OUT - overhead + 1)),
                                   protocol.Session()))
    assert at["ok"] is True and error_of(over)["code"] == 24
