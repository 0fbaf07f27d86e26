"""Date strings as pages write them → ISO 8601 (`YYYY-MM-DD`, or with the time when given).

`parse` reads a declared value (ISO 8601 and its loose forms, RFC 2822, compact
YYYYMMDD, "4 March 2024", "March 4, 2024", "2024 Mar 4", "04.03.2024", "2024/03/04", month names in
the languages below); `find` finds the first such date inside a line of text (a byline's
"Published 4 March 2024 · 5 min read"); `from_url` reads /2024/03/04/ or /2024-03-04 in a
URL. A date outside MIN_YEAR .. the current year + 1 is no date.
"""
from __future__ import annotations

import datetime as dt
import email.utils
import re

from .. import wordtrie

# The web's dates: nothing published before this year is on a page with metadata.
MIN_YEAR = 1990
# Month names and abbreviations (lower case, without a final '.'), in the languages of the
# labelled pages and their neighbours, and the forms their sites abbreviate or spell without
# diacritics: French "janv.", "févr.", "avr.", "juil.", "déc."; Danish "marts", Swedish
# "augusti"; Turkish (NOTES.md, 'Why dates are read in the forms many sites write them').
MONTHS: dict[str, int] = {}
for _i, _names in enumerate((
        "january jan januar janvier enero ene gennaio gen janeiro januari januar stycznia styczeń leden ledna январь января janv ocak",
        "february feb februar février fevrier febrero febbraio fevereiro fev februari lutego luty únor února февраль февраля févr fevr şubat subat",
        "march mar märz maerz mars marzo março marco maart marca marzec březen března март марта marts mart",
        "april apr avril abril aprile abr kwietnia kwiecień duben dubna апрель апреля avr nisan",
        "may mai mayo maggio maio mei maja maj květen května май мая mayıs mayis",
        "june jun juni juin junio giugno giu junho czerwca czerwiec červen června июнь июня haziran",
        "july jul juli juillet julio luglio lug julho lipca lipiec červenec července июль июля juil temmuz",
        "august aug août aout agosto ago augustus sierpnia sierpień srpen srpna август августа augusti ağustos agustos",
        "september sep sept septembre septiembre settembre set setembro wrzesień września září сентябрь сентября eylül eylul",
        "october oct oktober octobre octubre ottobre ott outubro out okt października październik říjen října октябрь октября ekim",
        "november nov novembre noviembre novembro listopada listopad listopadu ноябрь ноября kasım kasim",
        "december dec dezember décembre decembre diciembre dic dicembre dezembro dez desember grudnia grudzień prosinec prosince декабрь декабря déc aralık aralik",
), start=1):
    for _n in _names.split():
        MONTHS.setdefault(_n, _i)
# A month's name, the longest first: as `MONTH_ALTERNATION` (the definition) matches, but
# written as a trie of the names (wordtrie.py), which Python's engine tries several times
# faster at each place of a text (a case-insensitive alternation of 168 names is entered
# name by name; tests/test_metadata_dates.py compares the two).
MONTH_NAMES = sorted(MONTHS, key=len, reverse=True)
MONTH_ALTERNATION = "(" + "|".join(map(re.escape, MONTH_NAMES)) + r")\.?"
_MONTH = "(" + wordtrie.trie([(name, "") for name in MONTH_NAMES]) + r")\.?"

_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?"
                  r"\s*(Z|[+-]\d{2}:?\d{2})?)?")
_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2})?)?")
_YMD = re.compile(r"(\d{4})[/.](\d{1,2})[/.](\d{1,2})")
_DMY_NUM = re.compile(r"(\d{1,2})(?:[./-]|\.\s)(\d{1,2})(?:[./-]|\.\s)(\d{4})")    # also "4. 3. 2024"
# Chinese and Japanese "2024年3月4日", Korean "2024년 3월 4일" and "2024. 3. 4.".
_YMD_EAST = re.compile(r"(\d{4})\s*(?:[年년]|\.\s)\s*(\d{1,2})\s*(?:[月월]|\.\s)\s*(\d{1,2})(?!\d)")
# The letters a month's name starts with, as a look-ahead before the name in each pattern:
# a case-insensitive trie gives the engine no first character to skip to, so it would
# enter the trie's branches at every place of a text (_MDY) or after every day number
# (_DMY); the look-ahead (the same letters under the same case folding) fails at once where
# no name starts (NOTES.md, 'Why the stages read tags by their codes'; tests/test_metadata_dates.py
# compares the two).
MONTH_START = "(?=[" + "".join(sorted({re.escape(name[0]) for name in MONTH_NAMES})) + "])"
_DMY = re.compile(r"(\d{1,2})(?:st|nd|rd|th|er|º|\.)?(?:\s*|-)(?:de\s+)?" + MONTH_START + _MONTH
                  + r"(?:,?\s*|-)(?:de\s+)?(\d{4})", re.I)          # "4 March 2024", "04-Mar-2024"
MDY_PATTERN = _MONTH + r"(?:\s+|-)(\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+|-)(\d{4})"
_MDY = re.compile(MONTH_START + MDY_PATTERN, re.I)
_YMD_NAMED = re.compile(r"(\d{4})\s+" + MONTH_START + _MONTH + r"\s+(\d{1,2})\b",
                        re.I)                                       # PubMed's "2023 Jan 7"
# A year, to find the rows worth parsing for a date (every written form here has one).
YEAR = re.compile(r"(?:19|20)\d\d")
# Four digits in a row: every form `find` reads holds its year so (`\d{4}`, any script's
# digits), and a text without them is no date: most texts `find` is asked about (a
# byline's name parts, a date line's candidates) are answered by this one search.
FOUR_DIGITS = re.compile(r"\d{4}")
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:[/._-]|$)")
_URL_MONTH = re.compile(r"/((?:19|20)\d{2})/(\d{1,2})/")


def _max_year() -> int:
    return dt.date.today().year + 1


def _day(y: int, m: int, d: int) -> dt.date | None:
    if not MIN_YEAR <= y <= _max_year():
        return None
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def _iso(day: dt.date, hh=None, mm=None, ss=None, tz=None) -> str:
    if hh is None:
        return day.isoformat()
    try:
        t = dt.time(int(hh), int(mm), int(ss or 0))
    except ValueError:
        return day.isoformat()
    out = f"{day.isoformat()}T{t.isoformat()}"
    if tz:
        out += "+00:00" if tz == "Z" else (tz if ":" in tz else f"{tz[:3]}:{tz[3:]}")
    return out


def parse(value: str | None, us_order: bool = False) -> str | None:
    """The ISO 8601 form of a date value a page declares, or None. `us_order`: a numeric
    a/b/yyyy is month/day (else day/month, unless only one reading is a date)."""
    if not value:
        return None
    s = " ".join(value.split())[:200]
    m = _ISO.match(s)
    if m:
        day = _day(int(m[1]), int(m[2]), int(m[3]))
        return _iso(day, m[4], m[5], m[6], m[7]) if day else None
    m = _COMPACT.fullmatch(s)
    if m:
        day = _day(int(m[1]), int(m[2]), int(m[3]))
        return _iso(day, m[4], m[5], m[6]) if day else None
    if s.isdigit() and len(s) in (10, 13):                 # a Unix time stamp (s or ms)
        try:
            t = dt.datetime.fromtimestamp(int(s[:10]), dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
        return _iso(t.date(), t.hour, t.minute, t.second, "Z") if _day(t.year, t.month, t.day) else None
    if "," in s[:5] or s[:3].isalpha():
        try:
            t = email.utils.parsedate_to_datetime(s)
        except (TypeError, ValueError, IndexError):
            t = None
        if t is not None and _day(t.year, t.month, t.day):
            tz = None
            if t.utcoffset() is not None:
                off = int(t.utcoffset().total_seconds() // 60)
                tz = f"{'+' if off >= 0 else '-'}{abs(off) // 60:02d}:{abs(off) % 60:02d}"
            return _iso(t.date(), t.hour, t.minute, t.second, tz)
    return find(s, us_order)


def find(text: str, us_order: bool = False) -> str | None:
    """The first date written inside `text` (YYYY-MM-DD when no time is read), or None."""
    if not text:
        return None
    s = text[:500]
    year = FOUR_DIGITS.search(s)
    if not year:
        return None
    best: tuple[int, dt.date] | None = None
    # the forms that start with their year are searched from the first four digits on
    # (none starts before them)
    for rx, order, pos in ((_ISO, "ymd", year.start()), (_YMD, "ymd", year.start()),
                           (_DMY, "dMy", 0), (_MDY, "Mdy", 0),
                           (_YMD_NAMED, "yMd", year.start()), (_DMY_NUM, "num", 0),
                           (_YMD_EAST, "ymd", year.start())):
        for m in rx.finditer(s, pos):
            day = _read(m, order, us_order)
            if day is not None:
                if best is None or m.start() < best[0]:
                    best = (m.start(), day)
                break
    return best[1].isoformat() if best else None


def _read(m: re.Match, order: str, us_order: bool) -> dt.date | None:
    if order == "ymd":
        return _day(int(m[1]), int(m[2]), int(m[3]))
    if order == "dMy":
        return _day(int(m[3]), MONTHS[m[2].lower()], int(m[1]))
    if order == "yMd":
        return _day(int(m[1]), MONTHS[m[2].lower()], int(m[3]))
    if order == "Mdy":
        return _day(int(m[3]), MONTHS[m[1].lower()], int(m[2]))
    a, b, y = int(m[1]), int(m[2]), int(m[3])
    day_first, month_first = _day(y, b, a), _day(y, a, b)
    if day_first is None or month_first is None or day_first == month_first:
        return day_first or month_first          # one reading only: `us_order` not asked
    return month_first if us_order else day_first


# A numeric date a/b/yyyy (the separator the same twice): its reading is the page's.
NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?!\d)")


def month_first(text: str, default: bool, days: frozenset[str] = frozenset()) -> bool:
    """Whether a page whose text is `text` writes numeric dates month first: it writes one
    that only that order reads (5/13/2025) and none that only day first does (13/5/2025),
    or the reverse; else, when it writes neither, the order in which a date it writes is
    one of `days` (the days it declares in a form read one way only: "08/09/2012" beside a
    declared "Thu, 09 Aug 2012"), if only one order does; `default` otherwise (NOTES.md,
    'Why dates are read in the forms many sites write them')."""
    day, month = False, False
    day_declared, month_declared = False, False
    for m in NUMERIC_DATE.finditer(text):
        a, b = int(m[1]), int(m[3])
        day |= 12 < a <= 31 and 1 <= b <= 12
        month |= 12 < b <= 31 and 1 <= a <= 12
        if days and a != b and 1 <= a <= 12 and 1 <= b <= 12:
            month_declared |= f"{m[4]}-{a:02d}-{b:02d}" in days
            day_declared |= f"{m[4]}-{b:02d}-{a:02d}" in days
        if day and month:
            break
    if day != month:
        return month
    return month_declared if day_declared != month_declared and not day else default


def unambiguous_days(values) -> frozenset[str]:
    """The days of the date values a page declares that read the same in either numeric
    order (ISO 8601, "Thu, 09 Aug 2012", a day after 12): what a numeric date's order can
    be checked against."""
    return frozenset(p[:10] for v in values if (p := parse(v, False)) and p == parse(v, True))


class NumericOrder:
    """A page's `us_order`, decided the first time a date both of whose readings are days
    is read (bool()): `month_first` over the page's text (`text()`, asked then) and the
    days it declares unambiguously (`days()`, asked then), else `default` (its language).
    Most pages never ask, and never have their text joined."""

    def __init__(self, default: bool, text, days=None) -> None:
        self.default, self.text, self.days, self.answer = default, text, days, None

    def __bool__(self) -> bool:
        if self.answer is None:
            self.answer = month_first(self.text(), self.default,
                                      self.days() if self.days else frozenset())
        return self.answer


def from_url(url: str) -> str | None:
    """The day a URL names (/2024/03/04/, /2024-03-04), or None."""
    m = _URL_DATE.search(url or "")
    if m:
        day = _day(int(m[1]), int(m[2]), int(m[3]))
        return day.isoformat() if day else None
    return None
