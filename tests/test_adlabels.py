"""Ad labels: the label over an ad slot inside a story is not the story (issue 33's lines around the body)."""
import random

from conftest import PAGES
from pith.pages import static
from pith.pipeline import adlabels
from pith.pipeline.options import Options
from pith.pipeline.select import select

TEASER_PAGE = PAGES / "teaser-cards" / "source.html"
SLOT = '<div class="ad-slot"><p>{}</p></div>'


def collapsed(texts):
    """Texts with their whitespace collapsed, the form segment.texts gives the rules."""
    return [" ".join(t.split()) for t in texts]


def read(label, options=None):
    """The teaser-cards story broken after its second and fourth paragraphs by an ad slot
    whose only text is its label (the ad itself a script's, absent from a static page),
    as Liputan6, UOL and onedio print theirs."""
    html = TEASER_PAGE.read_text(encoding="utf-8")
    for end in ("pumping out seawater.</p>", "see the wall fail again.</p>"):
        assert end in html
        html = html.replace(end, end + "\n      " + SLOT.format(label), 1)
    snap = static.snapshot_from_html(html, "https://gazette.example.org/news/ferry-timetable")
    return select(snap, Options.from_overrides(options or {})).output("text")


def test_the_labels_of_ad_slots_inside_a_story_are_left_out():
    """The failure this fixes: the block model keeps a slot's label between the two
    paragraphs around it, and the reader's story was broken by "Advertisement" twice
    (fails with auto_ad_labels off, below)."""
    for label in ("Advertisement", "Continua após a publicidade", "— ADVERTISEMENT —"):
        text = read(label)
        assert "returns for the season." in text and "pumping out seawater." in text
        assert label.strip("— ") not in text
        assert label in read(label, {"auto_ad_labels": False})


def test_ad_labels_are_found_by_their_whole_text():
    found = ["Advertisement", "ADVERTISEMENT", "Advertisement:", "Sponsored",
             "Continua após a publicidade", "İçeriğin Devamı Aşağıda", "广告", "Anzeige",
             "Story continues below advertisement", "Article continues after this ad",
             "Advertisement - Scroll to continue"]
    kept = ["Advertising", "Advertising is how the paper pays its reporters.",
            "Advertisement\nThe council met on Monday to set the harbour dues.",
            "Sponsored content policy", "广告法修订草案公布", "Continue reading",
            "Advertisements for the new ferry line appeared across the city."]
    assert adlabels.labels(collapsed(found)).all()
    assert not adlabels.labels(collapsed(kept)).any()


def slow_labels(texts):
    """The rule as it read before its prefilter: every short text lower-cased and matched."""
    out = []
    for text in texts:
        line = text.lower().strip(adlabels.TRIM) if len(text) <= 2 * adlabels.AD_LABEL_CHARS else ""
        out.append(0 < len(line) <= adlabels.AD_LABEL_CHARS and adlabels.AD_LABEL.match(line) is not None)
    return out


LABELS = ["advertisement", "advertisements", "advert", "sponsored", "anzeige", "werbung",
          "publicité", "publicite", "publicidad", "publicidade", "pubblicità", "pubblicita",
          "reklam", "реклама", "广告", "廣告", "広告", "광고", "story continues below",
          "article continues after the advert", "content continue below this advert",
          "continua após a publicidade", "continúa después de la publicidad",
          "içeriğin devamı aşağıda", "i̇çeriğin devamı aşağıda",
          "advertisement – scroll to continue", "scroll to continue with content"]


def test_the_prefilter_passes_over_no_label():
    """Only the texts holding one of AD_WORDS are read (NOTES.md, 'Why the line rules
    search a page's texts at once'); every form AD_LABEL reads is still found at the
    filter's edge: in capitals and title case, trimmed to exactly 2 x AD_LABEL_CHARS
    characters, at the first and the last place of the join, beside an "İ" and after a
    text cut at the join's TEXT_STATS_MAX_CHARS."""
    for label in LABELS:
        forms = [label, label.upper(), label.title()]
        pad = max(0, 2 * adlabels.AD_LABEL_CHARS - len(label) - 2)
        forms.append("— " + label + " " + "." * pad)
        for filler in ([], ["İstanbul"], ["word " * 5000]):
            for form in forms:
                texts = [form] + filler + ["A paragraph."] + [form]
                assert adlabels.labels(texts).tolist() == slow_labels(texts), form
        assert len(label) <= adlabels.AD_LABEL_CHARS and adlabels.labels([label]).all(), label


def test_the_prefilter_agrees_with_the_rule_on_mixed_texts():
    rng = random.Random(20261128)
    parts = ["Advertisement", "ADVERT", "sponsored", "Publicidad", "continues", "below",
             "after", "the", "ad", "story", "İçeriğin", "Devamı", "Aşağıda", "广告", "—", ":",
             "scroll to continue", "with content", "x" * 30]
    for _ in range(300):
        texts = [" ".join(rng.choice(parts) for _ in range(rng.randint(0, 4)))
                 for _ in range(rng.randint(1, 12))]
        assert adlabels.labels(texts).tolist() == slow_labels(texts)
