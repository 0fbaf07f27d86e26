"""pith.pipeline.metadata.dates: dates read in the forms sites write them."""
from __future__ import annotations

import re

import pytest

from pith.pipeline.metadata import dates

from metadata_pages import meta_of, ARTICLE


@pytest.mark.parametrize("value,iso", [
    ("2024-03-01T10:00:00Z", "2024-03-01T10:00:00+00:00"),
    ("2024-03-01T10:00:00+0100", "2024-03-01T10:00:00+01:00"),
    ("Fri, 01 Mar 2024 10:00:00 GMT", "2024-03-01T10:00:00+00:00"),
    ("20240301", "2024-03-01"),
    ("1 March 2024", "2024-03-01"), ("March 1st, 2024", "2024-03-01"),
    ("1. März 2024", "2024-03-01"), ("12 de marzo de 2024", "2024-03-12"),
    ("01.03.2024", "2024-03-01"), ("2024/3/1", "2024-03-01"),
    ("2023 Jan 7", "2023-01-07"),                       # PubMed's citation_publication_date
    ("1890-01-01", None), ("2024-02-30", None), ("soon", None), ("", None),
])
def test_dates_parse(value, iso):
    assert dates.parse(value) == iso


def test_numeric_day_month_order():
    assert dates.parse("03/04/2024") == "2024-04-03"
    assert dates.parse("03/04/2024", us_order=True) == "2024-03-04"
    assert dates.parse("13/04/2024", us_order=True) == "2024-04-13"   # only one reading is a date


def test_a_numeric_dates_order_is_the_one_the_pages_other_numeric_dates_show():
    """"6/2/2025" is read in the order the page's other numeric dates can only be read in
    ("3/13/2026": month first; "13/03/2026": day first), else by the page's language
    (NOTES.md, 'Why dates are read in the forms many sites write them')."""
    def published(listing: str, lang: str = "en") -> str:
        body = ("<h1>Climate change</h1><p class='date'>Effective beginning 6/2/2025:</p>"
                + ARTICLE.format(h="Climate") + f"<ul><li>{listing}</li></ul>")
        return meta_of(body, lang=lang)["published"]

    assert published("Major Land Uses 3/13/2026") == "2025-06-02"
    assert published("Major Land Uses 13/03/2026") == "2025-02-06"
    assert published("Major Land Uses") == "2025-02-06"                 # lang en: day first
    assert published("Major Land Uses", lang="en-US") == "2025-06-02"
    assert published("Major Land Uses 13/03/2026", lang="en-US") == "2025-02-06"
    assert published("3/13/2026 and 13/03/2026") == "2025-02-06"       # both: the language's
    asked = []
    order = dates.NumericOrder(False, lambda: asked.append(1) or "5/13/2025")
    assert dates.find("13/4/2025", order) == "2025-04-13" and not asked   # one reading only
    assert dates.find("4/5/2025", order) == "2025-04-05" and asked == [1]
    dates.find("6/7/2025", order)
    assert asked == [1]                                                    # decided once


def test_find_reads_dates_of_any_scripts_digits_and_skips_texts_without_a_year():
    """`find` answers a text without four digits in a row at once (dates.FOUR_DIGITS):
    every form it reads holds its year so, in any script's digits (Python's \\d), which
    the prefilter keeps; a text with a year runs every form as before."""
    assert dates.find("Published ٢٠٢٤-٠٣-٠١ by Jane") == "2024-03-01"   # Arabic-Indic digits
    assert dates.find("Posted १२ March २०२४") == "2024-03-12"            # Devanagari digits
    assert dates.find("Jane Doe, 3 min read, 12 March") is None
    assert dates.find("March 12, 2024 at 10:00") == "2024-03-12"
    assert dates.find("12/03/24") is None


@pytest.mark.parametrize("text,iso", [
    ("By FlowGuard EMEA on 04-ago-2021 5:11:10", "2021-08-04"),    # day-month-year with hyphens
    ("Released 24-Nov-2021", "2021-11-24"), ("Mar-04-2025", "2025-03-04"),
    ("Posted March 4,2025", "2025-03-04"),                         # no space after the comma
    ("发布于 2016年10月14日", "2016-10-14"), ("2025년 3월 4일", "2025-03-04"),
    ("2025. 3. 4.", "2025-03-04"), ("4. 3. 2025", "2025-03-04"),  # Korean, Czech
    ("12 janv. 2025", "2025-01-12"), ("12 févr. 2025", "2025-02-12"), ("3 avr. 2025", "2025-04-03"),
    ("12 juil. 2025", "2025-07-12"), ("12 déc. 2025", "2025-12-12"),
    ("4 augusti 2025", "2025-08-04"), ("4. marts 2025", "2025-03-04"),
    ("4 Şubat 2025", "2025-02-04"), ("4 Aralık 2025", "2025-12-04"),
    ("the 21st of June 2017", None), ("March 2025", None), ("May 2025 12", None),
])
def test_find_reads_the_forms_many_sites_write(text, iso):
    """Dates as sites across languages write them on a date line (NOTES.md, 'Why dates are
    read in the forms many sites write them'); a month and year alone, or prose's "the
    21st of June", give no day."""
    assert dates.find(text) == iso


def test_month_trie_matches_as_the_alternation():
    """The date patterns read month names through a trie of them (dates._MONTH): every
    match (span and groups) is the plain alternation's (MONTH_ALTERNATION), on dates in
    every case and on names that are prefixes of others ("mar", "marzo", "marzec")."""
    import random
    import re
    rng = random.Random(7)
    names = dates.MONTH_NAMES
    pieces = names + ["1", "12", "3rd", "2024", "1999", ",", ".", " ", "  ", "de", "-", "/",
                      "Mar", "MARZ", "Sept.", "Ju", "j", "ö", "É", "X"]
    texts = ["1. März 2024", "Sept. 3, 2021", "3 marzec 2020", "2023 Jan 7", "MAYO 4, 2024"]
    for _ in range(3000):
        words = [rng.choice(pieces) for _ in range(rng.randint(1, 8))]
        words = [w.upper() if rng.random() < 0.2 else w.capitalize() if rng.random() < 0.2
                 else w for w in words]
        texts.append(rng.choice(["", " "]).join(words))
    for pattern in ("_DMY", "_MDY", "_YMD_NAMED"):
        fast = getattr(dates, pattern)
        plain = re.compile(fast.pattern.replace(dates._MONTH, dates.MONTH_ALTERNATION)
                           .replace(dates.MONTH_START, ""), re.I)
        assert plain.pattern != fast.pattern
        for t in texts:
            assert [m.span() + m.groups() for m in fast.finditer(t)] == \
                [m.span() + m.groups() for m in plain.finditer(t)], (pattern, t)


def test_a_numeric_dates_order_follows_a_day_the_page_declares_one_way_only():
    days = frozenset({"2012-08-09"})
    assert dates.month_first("Posted 08/09/2012 4:03 pm", False, days)
    assert not dates.month_first("Posted 09/08/2012 4:03 pm", True, days)
    # the page's own unambiguous numeric dates still decide first, and a day both readings
    # miss leaves the default
    assert not dates.month_first("08/09/2012 and 13/05/2012", False, days)
    assert not dates.month_first("03/04/2012", False, days)
    assert dates.unambiguous_days(["Thu, 09 Aug 2012 16:08:10 EST", "08/09/2012",
                                   "2012-07-01T10:00Z", "25/12/2011"]) == \
        frozenset({"2012-08-09", "2012-07-01", "2011-12-25"})
    # a page in British English showing the time a <meta> declares (HuffPost's, 2012)
    head = '<meta property="article:published_time" content="Thu, 09 Aug 2012 16:08:10 EST">'
    body = ('<article><h1>Cup defeat</h1><p class="posted">Posted: <span itemprop="datePublished">'
            '08/09/2012 4:03 pm</span></p><p>' + "Match text. " * 40 + "</p></article>")
    assert meta_of(body, head=head, lang="en-GB")["published"][:10] == "2012-08-09"


def test_a_month_names_first_letters_look_ahead_changes_no_match():
    """_MDY starts with a look-ahead of the letters a month's name starts with
    (dates.MONTH_START), _DMY and _YMD_NAMED hold it before the name: under the same case
    folding it matches exactly the characters the names' first letters match (every code
    point, the folded kin "ſ", "K" (Kelvin), "ı" included), so every match is the
    pattern's without it (MDY_PATTERN; the other two: the test above)."""
    import re
    first = re.compile("|".join(re.escape(name[0]) for name in dates.MONTH_NAMES), re.I)
    look = re.compile(dates.MONTH_START, re.I)
    assert [c for c in map(chr, range(0x110000)) if bool(first.match(c)) != bool(look.match(c))] == []
    plain = re.compile(dates.MDY_PATTERN, re.I)
    assert dates._MDY.pattern == dates.MONTH_START + dates.MDY_PATTERN
    for t in ("\u017feptember 4, 2025", "\u212aasım 3 2024, İstanbul", "MARCH 3 2020 and april 5, 2021",
              "ÚNOR 5 2023", "Jan-05-2024", "x" * 300 + " Dec 1 2023", "Posted: Nov 08, 2025 | 12:35"):
        assert [m.span() + m.groups() for m in dates._MDY.finditer(t)] == \
            [m.span() + m.groups() for m in plain.finditer(t)], t


def test_find_searches_the_year_first_forms_from_the_first_four_digits_alike():
    # dates.find starts the forms that open with their year at the first four digits: the
    # same first date as every form searched from the start (the definition, here)
    import random
    rng = random.Random(11)

    def plain(s, us=False):
        best = None
        for rx, order in ((dates._ISO, "ymd"), (dates._YMD, "ymd"), (dates._DMY, "dMy"),
                          (dates._MDY, "Mdy"), (dates._YMD_NAMED, "yMd"),
                          (dates._DMY_NUM, "num"), (dates._YMD_EAST, "ymd")):
            for m in rx.finditer(s):
                day = dates._read(m, order, us)
                if day is not None:
                    if best is None or m.start() < best[0]:
                        best = (m.start(), day)
                    break
        return best[1].isoformat() if best else None

    pieces = ["2024", "1999", "12345", "05", "3", "-", "/", ".", ". ", " ", "年", "月", "日",
              "March", "mar", "Sept.", "de", ",", "4th", "T10:30", "Z", "x", "٢٠٢٤"]
    texts = ["Ref 12345 on 2024-05-03", "2023 Jan 7", "4 March 2024 / 2024/03/05",
             "2024年3月4日", "99 2024 May 3, 2024"]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))))
    for t in texts:
        if dates.FOUR_DIGITS.search(t):
            for us in (False, True):
                assert dates.find(t, us) == plain(t, us), t
