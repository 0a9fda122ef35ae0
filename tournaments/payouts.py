"""Prize pools, places paid and what each place wins.

Pure arithmetic the tournament services call: no models, no database, and no floats for money.
Amounts are ints in the event's smallest money unit (cents, or whole pounds if that is what the
series counts in); percentages are ints in basis points (10000 = 100%, 5000 = 50%).

>>> pool = prize_pool(buy_ins=20, buy_in=2000, rebuys=5, addons=10, addon=1000)
>>> pool
60000
>>> payout_percentages(20)
[4500, 2700, 1800, 1000]
>>> payouts(pool, payout_percentages(20), unit=500)
[27500, 16000, 10500, 6000]
>>> shared_prizes([27500, 16000, 10500, 6000], places=[1, 2, 3, 3], unit=500)
[27500, 16000, 8500, 8000]

Errors are `PayoutError`, a `ValueError` whose message says what is wrong in the director's
terms ("payout percentages add up to 95.00%, not 100%"), so a form can show it as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

FULL = 10_000
"""100% in basis points."""


class PayoutError(ValueError):
    """A prize pool, payout table, prize list or deal that cannot be paid as given.

    >>> validate_percentages([5000, 3000, 1500])
    Traceback (most recent call last):
    ...
    tournaments.payouts.PayoutError: payout percentages add up to 95.00%, not 100%
    """


# The built-in table: (largest field it covers, ((basis points, places at that share), ...)).
# Small fields follow the usual home-game sheet (the 50/30/20 up to 12 entries). From
# 9 places on, the shares follow a smooth curve (place k gets about 1 / (k + 0.8) ** 1.25 of
# the pool, normalised), rounded to 0.05%, with places 10 and beyond paid in equal blocks of
# three and then nine, as card rooms print them; rounding is settled on first place. About one
# entry in nine is paid; from 21 entries on the smallest prize is worth at least 1.5 buy-ins
# even at the low end of a row (31 entries: 5% of 31 = 1.55), and below that the sheet's last
# place gets back 1.3 to 1.4 buy-ins. Fields above 500 are beyond what a home series runs and
# get an error asking for the director's own percentages.
_TABLE: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = (
    # Up to three entries the winner takes all: paying second would hand back most of a buy-in
    # for beating one person.
    (3, ((10000, 1),)),
    (6, ((6500, 1), (3500, 1))),
    (12, ((5000, 1), (3000, 1), (2000, 1))),
    (20, ((4500, 1), (2700, 1), (1800, 1), (1000, 1))),
    (30, ((4000, 1), (2500, 1), (1600, 1), (1100, 1), (800, 1))),
    (45, ((3800, 1), (2400, 1), (1550, 1), (1050, 1), (700, 1), (500, 1))),
    (60, ((3500, 1), (2200, 1), (1500, 1), (1050, 1), (750, 1), (550, 1), (450, 1))),
    (80, ((3300, 1), (2100, 1), (1450, 1), (1000, 1), (750, 1), (550, 1), (450, 1), (400, 1))),
    (
        100,
        (
            (3100, 1), (2000, 1), (1400, 1), (1000, 1), (750, 1), (550, 1), (450, 1), (400, 1),
            (350, 1),
        ),
    ),
    (
        150,
        (
            (2945, 1), (1700, 1), (1160, 1), (865, 1), (685, 1), (560, 1), (470, 1), (405, 1),
            (355, 1), (285, 3),
        ),
    ),
    (
        200,
        (
            (2645, 1), (1525, 1), (1040, 1), (775, 1), (615, 1), (505, 1), (425, 1), (365, 1),
            (320, 1), (255, 3), (190, 3), (150, 3),
        ),
    ),
    (
        300,
        (
            (2435, 1), (1390, 1), (950, 1), (710, 1), (560, 1), (460, 1), (385, 1), (330, 1),
            (290, 1), (230, 3), (175, 3), (140, 3), (95, 9),
        ),
    ),
    (
        400,
        (
            (2305, 1), (1315, 1), (895, 1), (670, 1), (530, 1), (435, 1), (365, 1), (315, 1),
            (275, 1), (220, 3), (165, 3), (130, 3), (90, 9), (60, 9),
        ),
    ),
    (
        500,
        (
            (2150, 1), (1265, 1), (860, 1), (645, 1), (510, 1), (415, 1), (350, 1), (300, 1),
            (265, 1), (210, 3), (160, 3), (125, 3), (90, 9), (60, 9), (45, 9),
        ),
    ),
)  # fmt: skip

MAX_TABLE_ENTRIES = _TABLE[-1][0]
"""The largest field the built-in table covers; beyond it the director gives percentages."""


def _pct(basis_points: int) -> str:
    """Basis points as the percentage a director reads: 950 -> '9.50%'."""
    sign = "-" if basis_points < 0 else ""
    whole, part = divmod(abs(basis_points), 100)
    return f"{sign}{whole}.{part:02d}%"


def _not_a_percentage(place: int, value: object) -> str:
    return _("place %(place)s: %(value)s is not a percentage") % {
        "place": place,
        "value": repr(value),
    }


def _check_amount(name: str, value: int) -> None:
    """``name`` is a message id (``gettext_noop``), translated with the message."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PayoutError(
            _("%(name)s must be a whole number of money units, not %(value)s")
            % {"name": _(name), "value": repr(value)}
        )
    if value < 0:
        raise PayoutError(
            _("%(name)s cannot be negative (%(value)s)") % {"name": _(name), "value": value}
        )


def _check_unit(unit: int) -> None:
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise PayoutError(
            _("the money unit must be a whole number of at least 1, not %(unit)s")
            % {"unit": repr(unit)}
        )


def prize_pool(
    *,
    buy_ins: int,
    buy_in: int,
    rebuys: int = 0,
    rebuy: int | None = None,
    addons: int = 0,
    addon: int | None = None,
    guarantee: int = 0,
) -> int:
    """The prize pool: every buy-in (re-entries count as buy-ins), rebuy and add-on.

    `buy_in`, `rebuy` and `addon` are the parts that go to the prizes, fees apart: a "20+5"
    event passes 20 (in money units) and keeps the 5 out. A rebuy or add-on costs the same as
    the buy-in unless given. `guarantee` is a promised minimum pool, if the series has one.

    >>> prize_pool(buy_ins=12, buy_in=2000)
    24000
    >>> prize_pool(buy_ins=12, buy_in=2000, rebuys=3, addons=8, addon=1000)
    38000
    >>> prize_pool(buy_ins=3, buy_in=2000, guarantee=10000)
    10000
    """
    rebuy = buy_in if rebuy is None else rebuy
    addon = buy_in if addon is None else addon
    for name, value in (
        (gettext_noop("buy-ins"), buy_ins),
        (gettext_noop("buy-in"), buy_in),
        (gettext_noop("rebuys"), rebuys),
        (gettext_noop("rebuy"), rebuy),
        (gettext_noop("add-ons"), addons),
        (gettext_noop("add-on"), addon),
        (gettext_noop("guarantee"), guarantee),
    ):
        _check_amount(name, value)
    return max(buy_ins * buy_in + rebuys * rebuy + addons * addon, guarantee)


def payout_percentages(entries: int) -> list[int]:
    """The built-in share of the pool for each place paid, in basis points, for a field size.

    `entries` counts every buy-in, re-entries included, since each adds to the pool.

    >>> payout_percentages(6)
    [6500, 3500]
    >>> payout_percentages(7)
    [5000, 3000, 2000]
    >>> len(payout_percentages(120)), payout_percentages(120)[9:]
    (12, [285, 285, 285])
    """
    if isinstance(entries, bool) or not isinstance(entries, int) or entries < 1:
        raise PayoutError(
            _("a tournament needs at least one entry to pay, not %(entries)s")
            % {"entries": repr(entries)}
        )
    for largest, row in _TABLE:
        if entries <= largest:
            return [share for share, count in row for _ in range(count)]
    raise PayoutError(
        _(
            "the built-in payout table stops at %(max)s entries; "
            "enter your own percentages for %(entries)s"
        )
        % {"max": MAX_TABLE_ENTRIES, "entries": entries}
    )


def parse_percentages(values: Sequence[str | int | Decimal]) -> list[int]:
    """A director's own percentages ("50", "30.5", 19.5 as Decimal) in basis points, checked.

    Each may have at most two decimals (0.01% is one basis point), and together they must pass
    `validate_percentages`.

    >>> parse_percentages(["50", "30.5", "19.5"])
    [5000, 3050, 1950]
    >>> parse_percentages(["50", "30", "20.125"])
    Traceback (most recent call last):
    ...
    tournaments.payouts.PayoutError: place 3: 20.125% has more than two decimals
    """
    shares: list[int] = []
    for place, value in enumerate(values, start=1):
        if isinstance(value, bool) or isinstance(value, float):
            # A float has already lost the exact percentage the director typed.
            raise PayoutError(
                _("place %(place)s: give %(value)s as text or a Decimal")
                % {"place": place, "value": repr(value)}
            )
        try:
            percent = Decimal(str(value).strip().rstrip("%").strip())
        except InvalidOperation:
            raise PayoutError(_not_a_percentage(place, value)) from None
        if not percent.is_finite():
            raise PayoutError(_not_a_percentage(place, value))
        basis_points = percent * 100
        if basis_points != basis_points.to_integral_value():
            raise PayoutError(
                _("place %(place)s: %(percent)s%% has more than two decimals")
                % {"place": place, "percent": percent}
            )
        shares.append(int(basis_points))
    validate_percentages(shares)
    return shares


def validate_percentages(percentages: Sequence[int]) -> None:
    """Refuse a payout table that is empty, negative, rising or not 100% in all.

    Equal shares for neighbouring places are fine (card rooms pay 10th-12th alike); a lower
    place paying more than a higher one is not.

    >>> validate_percentages([5000, 3000, 2000])
    >>> validate_percentages([5000, 2000, 3000])
    Traceback (most recent call last):
    ...
    tournaments.payouts.PayoutError: place 3 pays 30.00%, more than place 2's 20.00%
    """
    if not percentages:
        raise PayoutError(_("a payout table needs at least one place"))
    for place, share in enumerate(percentages, start=1):
        if isinstance(share, bool) or not isinstance(share, int):
            raise PayoutError(
                _("place %(place)s: %(share)s is not a whole number of basis points")
                % {"place": place, "share": repr(share)}
            )
        if share <= 0:
            raise PayoutError(
                _("place %(place)s pays %(share)s: every place paid needs a share")
                % {"place": place, "share": _pct(share)}
            )
        if place > 1 and share > percentages[place - 2]:
            raise PayoutError(
                _("place %(place)s pays %(share)s, more than place %(previous)s's %(more)s")
                % {
                    "place": place,
                    "share": _pct(share),
                    "previous": place - 1,
                    "more": _pct(percentages[place - 2]),
                }
            )
    total = sum(percentages)
    if total != FULL:
        raise PayoutError(
            _("payout percentages add up to %(total)s, not 100%%") % {"total": _pct(total)}
        )


def payouts(pool: int, percentages: Sequence[int], unit: int = 1) -> list[int]:
    """Each place's prize: its share of `pool` rounded down to `unit`, the remainder to first.

    First's prize is a multiple of `unit` whenever the pool is. Rounding down and handing what
    is left to the winner keeps the prizes in order and sums them to the pool exactly.

    >>> payouts(10000, [5000, 3000, 2000], unit=100)
    [5000, 3000, 2000]
    >>> payouts(12345, [5000, 3000, 2000], unit=100)
    [6245, 3700, 2400]
    >>> sum(payouts(12345, [5000, 3000, 2000], unit=100))
    12345
    """
    _check_amount(gettext_noop("the prize pool"), pool)
    _check_unit(unit)
    validate_percentages(percentages)
    prizes = [pool * share // FULL // unit * unit for share in percentages]
    prizes[0] += pool - sum(prizes)
    return prizes


def shared_prizes(prizes: Sequence[int], places: Sequence[int], unit: int = 1) -> list[int]:
    """What each listed player wins when some of them tied for a place.

    `places` gives each player's finishing place in standard competition ranking: players
    tied for 3rd and 4th are both 3, and the next player is 5. Players tied at place k, m of
    them, share the prizes of places k..k+m-1 equally (TDA: players out on the same hand with
    equal stacks share the places and their prizes; places past the last paid one add 0).
    Each share is rounded down to `unit` and the remainder goes to the first of the tied
    players as listed, so the caller lists them in the order the odd unit should go (by seat
    left of the button, say, as the odd chip of a pot). Players not listed are not affected;
    the result is in the order of `places`.

    >>> shared_prizes([5000, 3000, 2000], places=[1, 2, 2], unit=100)
    [5000, 2500, 2500]
    >>> shared_prizes([5000, 3000, 2000], places=[3, 3, 1, 5], unit=100)
    [1000, 1000, 5000, 0]
    >>> shared_prizes([5000, 3000, 2100], places=[1, 1, 1], unit=100)
    [3500, 3300, 3300]
    """
    _check_unit(unit)
    for prize in prizes:
        _check_amount(gettext_noop("a prize"), prize)
    players_at: dict[int, list[int]] = {}
    for index, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise PayoutError(
                _("a finishing place must be 1 or more, not %(place)s") % {"place": repr(place)}
            )
        players_at.setdefault(place, []).append(index)
    taken_until = 0
    for place in sorted(players_at):
        if place <= taken_until:
            raise PayoutError(
                _("place %(place)s is taken by the players tied for place %(tied)s")
                % {"place": place, "tied": _tied_from(players_at, place)}
            )
        taken_until = place + len(players_at[place]) - 1
    won = [0] * len(places)
    for place, tied in players_at.items():
        total = sum(prizes[place - 1 : place - 1 + len(tied)])
        share = total // len(tied) // unit * unit
        for index in tied:
            won[index] = share
        won[tied[0]] += total - share * len(tied)
    return won


def _tied_from(players_at: dict[int, list[int]], place: int) -> int:
    """The earlier place whose tied players also cover `place`."""
    return max(p for p in players_at if p < place and p + len(players_at[p]) > place)
