"""Deals at the end of a tournament: ICM and chip-chop proposals.

The Independent Chip Model (Malmuth-Harville) says a player with a share of the chips in play
wins with that probability, and, once someone has taken a place, the next place goes the same
way among the players left. A player's equity is their expected prize over every finishing
order. `icm` computes it exactly, as fractions; `icm_deal` and `chip_chop` turn a model into
amounts in the money unit that add up to the prizes left, to the unit, so the director can
show a proposal, edit it and record it.

>>> icm([6000, 4000], [300, 200])
[Fraction(260, 1), Fraction(240, 1)]
>>> icm_deal([5000, 3000, 2000], [500, 300, 200], unit=10)
[380, 330, 290]
>>> chip_chop([5000, 3000, 2000], [500, 300, 200], unit=10)
[400, 320, 280]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import reduce
from math import gcd, prod

from django.utils.translation import gettext as _

from tournaments.payouts import PayoutError

MAX_ICM_PLAYERS = 10
"""Exact ICM visits every subset of the players; ten is 1,024 subsets and a few milliseconds."""


def _check(stacks: Sequence[int], prizes: Sequence[int], unit: int | None = None) -> None:
    if not stacks:
        raise PayoutError(_("a deal needs at least one player"))
    for stack in stacks:
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise PayoutError(
                _("every player in a deal needs chips; got a stack of %(stack)s")
                % {"stack": repr(stack)}
            )
    for prize in prizes:
        if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
            raise PayoutError(
                _("a prize must be a whole amount of 0 or more, not %(prize)s")
                % {"prize": repr(prize)}
            )
    if len(prizes) > len(stacks):
        raise PayoutError(
            _("%(prizes)s prizes left for %(players)s players: each player takes one place")
            % {"prizes": len(prizes), "players": len(stacks)}
        )
    if unit is not None and (isinstance(unit, bool) or not isinstance(unit, int) or unit < 1):
        raise PayoutError(
            _("the money unit must be a whole number of at least 1, not %(unit)s")
            % {"unit": repr(unit)}
        )


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's exact Malmuth-Harville equity in the prizes left, in stack order.

    `prizes` are the prizes still to be won, first place first; if fewer prizes than players
    are left, the last places pay nothing. At most `MAX_ICM_PLAYERS` players.

    >>> [str(e) for e in icm([5000, 3000, 2000], [500, 300, 200])]
    ['5375/14', '655/2', '2020/7']
    """
    _check(stacks, prizes)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise PayoutError(
            _(
                "ICM here is exact and handles at most %(max)s players, not %(count)s; "
                "deal when fewer are left, or chip-chop"
            )
            % {"max": MAX_ICM_PLAYERS, "count": n}
        )
    # Only the ratios of the stacks matter; smaller numbers make every step below cheaper.
    common = reduce(gcd, stacks)
    stacks = [stack // common for stack in stacks]
    full = (1 << n) - 1
    chips = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        chips[mask] = chips[mask ^ low] + stacks[low.bit_length() - 1]
    unpaid = n - len(prizes)  # once this few are left, every place still to go pays nothing
    by_size: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range(1, full + 1):
        by_size[mask.bit_count()].append(mask)
    # `reach[S]` is the chance that the players in S are the ones left after the top places
    # went to the others, summed over every order that leads there, so each set is visited
    # once: n * 2**(n - 1) steps instead of n! finishing orders. The chance is kept as an int
    # over one common denominator, the product of the distinct chip totals: along any order
    # the totals strictly fall, so each order's product of totals divides it, and so does the
    # product with the next total, which makes every division below exact. Fractions reduced
    # at each step cost 3 to 5 times as much (ten players: 70-150 ms against 25-50 ms).
    denominator = prod({chips[mask] for size in range(unpaid + 1, n + 1) for mask in by_size[size]})
    reach = [0] * (full + 1)
    reach[full] = denominator
    scaled = [0] * n
    for size in range(n, unpaid, -1):
        prize = prizes[n - size]
        for mask in by_size[size]:
            if not reach[mask]:
                continue
            per_chip = reach[mask] // chips[mask]
            bits = mask
            while bits:
                low = bits & -bits
                bits ^= low
                player = low.bit_length() - 1
                takes = per_chip * stacks[player]  # the chance this player takes this place
                scaled[player] += takes * prize
                if size - 1 > unpaid:
                    reach[mask ^ low] += takes
    return [Fraction(value, denominator) for value in scaled]


def _to_units(shares: Sequence[Fraction], total: int, unit: int) -> list[int]:
    """Round exact shares of `total` to `unit` so they add up to `total` exactly.

    Each share is rounded down to the unit; the units left go one each to the largest
    remainders (a larger share first on a tie, then the earlier player), and what is left
    below one unit, when `total` is not a multiple of it, to the player with the largest share.
    The largest-remainder step never puts a smaller share above a larger one.
    """
    amounts = [int(share // unit) * unit for share in shares]
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), -shares[i], i))
    left = total - sum(amounts)
    for i in order[: left // unit]:
        amounts[i] += unit
    top = min(range(len(shares)), key=lambda i: (-shares[i], i))
    amounts[top] += left % unit
    return amounts


def icm_deal(stacks: Sequence[int], prizes: Sequence[int], unit: int = 1) -> list[int]:
    """An ICM deal: each player's `icm` equity in money units, adding up to the prizes left.

    >>> icm_deal([6000, 4000], [300, 200], unit=1)
    [260, 240]
    >>> icm_deal([5000, 3000, 2000], [500, 300, 200], unit=1)
    [384, 327, 289]
    """
    _check(stacks, prizes, unit)
    return _to_units(icm(stacks, prizes), sum(prizes), unit)


def chip_chop(stacks: Sequence[int], prizes: Sequence[int], unit: int = 1) -> list[int]:
    """A chip-chop deal: the lowest prize left to everyone, the rest split by chips.

    Every player left is guaranteed the prize of the last place among them (0 if that place
    is not paid), since no deal should pay anyone less than busting next would; the rest of
    the prizes is split in proportion to the chips. Amounts are rounded to `unit` as in
    `icm_deal` and add up to the prizes left. Unlike ICM, a big chip lead can be worth more
    than first prize; the proposal is the director's to edit.

    >>> chip_chop([6000, 4000], [300, 200], unit=1)
    [260, 240]
    >>> chip_chop([7000, 2000, 1000], [500, 300, 200], unit=10)
    [480, 280, 240]
    """
    _check(stacks, prizes, unit)
    n = len(stacks)
    lowest = prizes[n - 1] if len(prizes) == n else 0
    rest = sum(prizes) - lowest * n
    chips = sum(stacks)
    shares = [lowest + Fraction(rest * stack, chips) for stack in stacks]
    return _to_units(shares, sum(prizes), unit)
