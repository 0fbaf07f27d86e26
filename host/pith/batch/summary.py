"""The counts a batch reports at the end, adding up to the records read.

`Summary` is filled from the rows as they come (`add`) and from the reader's tally (what
was skipped without a row). `failures` keeps the first MAX_NAMED failed or timed-out
records by source and error, so the report can name them; the counts cover all of them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .records import Tally

# Failed records named in the report (the rows name every one; a summary stays short).
MAX_NAMED = 20


@dataclass
class Summary:
    rows: int = 0                      # records that got a row (HTML pages and failures)
    status: Counter = field(default_factory=Counter)   # ok / empty / failed / timeout
    errors: Counter = field(default_factory=Counter)   # error name -> count
    failures: list = field(default_factory=list)        # (source, "name (code): message")
    tally: Tally = field(default_factory=Tally)
    seconds: float = 0.0

    def add(self, row: dict[str, Any]) -> None:
        self.rows += 1
        self.status[row["status"]] += 1
        error = row.get("error")
        if error:
            self.errors[error["name"]] += 1
            if len(self.failures) < MAX_NAMED:
                self.failures.append((row["source"], f"{error['name']} ({error['code']}): "
                                                     f"{error['message']}"))

    def failure_lines(self) -> list[str]:
        """The named failures, each naming its record once."""
        return [f"pith:   {error}" if source in error else f"pith:   {source}: {error}"
                for source, error in self.failures]

    def as_dict(self) -> dict[str, Any]:
        """Counts that add up: records = extracted + empty + failed + timed_out + damaged +
        skipped (summed over reasons); html = extracted + empty + failed + timed_out. A
        damaged WARC record or span is one record read, with its own row."""
        skipped = sum(self.tally.skipped.values())
        damaged = self.errors["record_damaged"]
        return {
            "records": self.rows + skipped,
            "html": self.rows - damaged,
            "skipped": dict(self.tally.skipped),
            "extracted": self.status["ok"],
            "empty": self.status["empty"],
            "failed": self.status["failed"] - damaged,
            "timed_out": self.status["timeout"],
            "damaged": damaged,
            "errors": dict(self.errors),
            "seconds": round(self.seconds, 3),
        }

    def lines(self) -> list[str]:
        """The report: one line of counts (they add up to the records read), one of errors
        by name, the named failures."""
        d = self.as_dict()
        rate = f", {d['html'] / self.seconds:,.1f} pages/s" if self.seconds > 0 else ""
        skipped = ", ".join(f"{n:,} {why.replace('_', ' ')}" for why, n in sorted(d["skipped"].items()))
        out = [f"pith: {d['records']:,} records read: {d['extracted']:,} extracted, "
               f"{d['empty']:,} empty, {d['failed']:,} failed, {d['timed_out']:,} timed out, "
               f"{d['damaged']:,} damaged, {sum(d['skipped'].values()):,} skipped"
               + (f" ({skipped})" if skipped else "")
               + f" in {self.seconds:,.1f} s{rate}"]
        if self.errors:
            out.append("pith: errors: " + ", ".join(f"{n:,} {name}" for name, n in
                                                   self.errors.most_common()))
        out.extend(self.failure_lines())
        if len(self.failures) < sum(self.errors.values()):
            out.append(f"pith:   ... {sum(self.errors.values()) - len(self.failures):,} more "
                       "(each row's `error` names its own)")
        return out
