"""The book's calendar, positioned relative to the clock (``CFAB_CLOCK``).

Everything time-like in the book comes from here: the open GL period is the clock's month and the
twelve months before it are closed; the 1099 tax year is the calendar year before the clock's; the
timecards cover the eight weeks ending at the clock; the certified-payroll week ends on the last
Saturday at least seven days before the clock; owner pay application #1 runs through the end of the
month before the clock and #2 (not in the book: a task drafts it) through the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta


def month_start(d: date) -> date:
    return d.replace(day=1)


def month_end(d: date) -> date:
    nxt = (d.replace(day=28) + timedelta(days=4)).replace(day=1)
    return nxt - timedelta(days=1)


def add_months(d: date, n: int) -> date:
    """The same day ``n`` months later (clamped to the month's last day)."""
    y, m = divmod(d.month - 1 + n, 12)
    first = date(d.year + y, m + 1, 1)
    return first.replace(day=min(d.day, month_end(first).day))


def period_of(d: date) -> str:
    return f"{d.year:04d}-{d.month:02d}"


def last_weekday_on_or_before(d: date, weekday: int) -> date:
    """``weekday``: Monday 0 … Sunday 6."""
    return d - timedelta(days=(d.weekday() - weekday) % 7)


def next_weekday_on_or_after(d: date, weekday: int) -> date:
    return d + timedelta(days=(weekday - d.weekday()) % 7)


SATURDAY = 5
THURSDAY = 3


@dataclass(frozen=True)
class Timeline:
    clock: date
    window_start: date  # first day of the first closed month
    months: tuple[date, ...]  # first day of each of the 13 months (12 closed + the open one)
    open_period: str
    prior_month_end: date  # owner pay app #1 period end; sov_progress "previous" as_of
    tax_year: int
    cert_week_ending: date  # certified-payroll week (Saturday)
    timecard_start: date  # first day of the 8-week timecard window
    payroll_weeks: tuple[date, ...]  # Saturdays ending each payroll week in the window

    @classmethod
    def from_clock(cls, clock: date) -> Timeline:
        first_open = month_start(clock)
        start = add_months(first_open, -12)
        months = tuple(add_months(start, i) for i in range(13))
        timecard_start = clock - timedelta(days=55)
        first_sat = next_weekday_on_or_after(start + timedelta(days=6), SATURDAY)
        last_sat = next_weekday_on_or_after(clock, SATURDAY)
        weeks: list[date] = []
        d = first_sat
        while d <= last_sat:
            weeks.append(d)
            d += timedelta(days=7)
        return cls(
            clock=clock,
            window_start=start,
            months=months,
            open_period=period_of(clock),
            prior_month_end=first_open - timedelta(days=1),
            tax_year=clock.year - 1,
            cert_week_ending=last_weekday_on_or_before(clock - timedelta(days=7), SATURDAY),
            timecard_start=timecard_start,
            payroll_weeks=tuple(weeks),
        )

    # -- periods ---------------------------------------------------------------------------
    def period_end(self, month: date) -> date:
        """The billing period end for a month: its last day, or the clock for the open month."""
        return self.clock if month_start(month) == month_start(self.clock) else month_end(month)

    def period_ends(self, since: date) -> list[date]:
        """Period ends of the window's months whose end falls on or after ``since``."""
        return [self.period_end(m) for m in self.months if self.period_end(m) >= since]

    def is_open(self, d: date) -> bool:
        return period_of(d) == self.open_period

    def in_window(self, d: date) -> bool:
        return self.window_start <= d <= self.clock

    def clamp(self, d: date) -> date:
        return max(self.window_start, min(self.clock, d))

    def batch_check_date(self, week_ending: date) -> date:
        return week_ending + timedelta(days=5)
