"""measure/comments_score: the thread answered apart, scored against truth_comments beside trafilatura's."""
import json
import re

import pytest

from pith.measure import comments_score
from pith.measure.datasets import load_scorer
from test_cli import COMMENTS_PAGE

pytest.importorskip("trafilatura")


def comment_truth() -> str:
    """The fixture's comments as a person would copy them: each comment's text."""
    html = COMMENTS_PAGE.read_text(encoding="utf-8")
    return "\n\n".join(re.findall(r'<li id="comment-\d+".*?<p>(.*?)</p>', html, flags=re.S))


def test_rows_score_both_methods_on_the_pages_with_a_truth(tmp_path):
    try:
        load_scorer()
    except Exception:
        pytest.skip("the shared scorer is not here")
    data = tmp_path / "blogs"
    for folder in ("html", "truth", "truth_comments"):
        (data / folder).mkdir(parents=True)
    (data / "html" / "1.html").write_bytes(COMMENTS_PAGE.read_bytes())
    (data / "html" / "2.html").write_bytes(COMMENTS_PAGE.read_bytes())
    (data / "truth" / "1.txt").write_text("post", encoding="utf-8")
    (data / "truth" / "2.txt").write_text("post", encoding="utf-8")
    (data / "truth_comments" / "1.txt").write_text(comment_truth(), encoding="utf-8")
    (data / "index.jsonl").write_text("".join(
        json.dumps({"id": i, "dataset": "blogs", "html": f"html/{i}.html",
                    "truth": f"truth/{i}.txt"}) + "\n" for i in ("1", "2")), encoding="utf-8")
    rows = {(r["method"], r["pages"]): r for r in comments_score.run(data, None, None)}
    assert set(rows) == {(m, p) for m in ("pith", "trafilatura")
                         for p in ("with comment truth", "all")}
    assert rows[("pith", "with comment truth")]["n"] == 1
    assert rows[("pith", "all")]["n"] == 2
    # the thread's text holds every comment (the shingles across two comments of the truth
    # have an author line between them in the page); page 2 has none in its truth, so the
    # same answer there is a false thread (precision 0 on it)
    assert rows[("pith", "with comment truth")]["recall"] > 0.85
    assert rows[("pith", "all")]["precision"] < rows[("pith", "with comment truth")]["precision"]
