"""A player's net result: the one definition every page and file uses.

Net is what the player received (prizes and bounties) minus everything they paid: buy-ins,
rebuys, add-ons, re-entries and fees, all of which ``Result.paid_in`` holds. It is what the
night did to the player's wallet, so a player who paid 25 (a 20 buy-in and a 5 fee) and
won 50 is +25 on their profile, in the standings and on the settle-up alike.

The settle-up's transfers settle something else, the prize pool: each player's winnings
against what they put in it, fees apart (they go to the host). That is ``net + fees``;
``series.services.settle`` calls it "to settle" and never "net".

>>> net_result(prize=50, bounties=10, paid_in=25)
35
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

# The line under a table with a net column, and the column header's tooltip.
NET_HELP = gettext_lazy(
    "Net: what the player won (prizes and bounties) minus everything they paid (buy-ins, "
    "rebuys, add-ons, re-entries and fees)."
)


def net_result(*, prize: int, bounties: int, paid_in: int) -> int:
    """What the player received minus everything they paid, fees included."""
    return prize + bounties - paid_in
