"""pith.measure.title_choice: the title's candidates described, a learned choice among them fitted and cross-validated by site against the rule."""
from __future__ import annotations

import numpy as np

from pith.measure import title_choice
from pith.measure.title_choice import FEATURES, Page, candidates, cross_validate, folds_of


def test_candidates_carry_their_sources_forms_and_the_rules_choice():
    inputs = ([None, None, "How tides work | Harbour Gazette"], None,
              [("How tides work", 4)], "Harbour Gazette", "gazette.example", False)
    keys, x = candidates(inputs, "How tides work")
    row = dict(zip(FEATURES, x[keys.index("how tides work")]))
    assert row["rule"] == row["h1_whole"] == row["doc_nosite"] == row["doc_first"] == 1
    assert row["doc_whole"] == 0 and row["sources"] == 2 and row["h1_nearest"] == 1
    whole = dict(zip(FEATURES, x[keys.index("how tides work | harbour gazette")]))
    assert whole["doc_whole"] == 1 and whole["rule"] == 0 and whole["holds_site"] == 1
    assert dict(zip(FEATURES, x[keys.index("harbour gazette")]))["site"] == 1


def page(site: str, label_first: bool) -> Page:
    """Two candidates, the rule's and a declared title whole; the label is the declared one
    when `label_first` is False."""
    x = np.zeros((2, len(FEATURES)))
    x[:, 0] = 1
    x[0, FEATURES.index("rule")] = 1
    x[1, FEATURES.index("doc_whole")] = 1
    x[:, FEATURES.index("root")] = x[0, FEATURES.index("rule_root")] = float(not label_first)
    return Page(site, x, np.array([label_first, not label_first]))


def test_a_learnable_choice_is_learned_and_counted_against_the_rule():
    # the label is the declared title whole on root pages, the rule's answer elsewhere:
    # a model that reads the rule's choice on a root (`rule_root`; a page-wide feature
    # alone moves every candidate's score alike) beats the rule on every root page of
    # held-out sites
    pages = [page(f"site{i}.example", label_first=i % 3 != 0) for i in range(60)]
    cv = cross_validate(pages, 0.01, k=3)
    assert cv == {"share": 1.0, "gained": 20, "lost": 0}


def test_folds_hold_each_site_once_and_none_is_empty():
    pages = [page(f"site{i % 40}.example", True) for i in range(200)]
    folds = folds_of(pages, title_choice.FOLDS)
    assert np.bincount(folds, minlength=title_choice.FOLDS).min() > 0
    for s in {p.site for p in pages}:
        assert len({f for p, f in zip(pages, folds) if p.site == s}) == 1
