"""What the live tables tell the rest of the site, always after commit.

``hand_ended`` is sent when a hand of a tournament table ends (``Table.kind``); the table is
then held (``Table.held``) until whoever runs the tournament releases it
(``tables.services.table_release``), so the eliminations and moves it decides happen
between hands::

    hand_ended.send(
        sender=Table,
        table_id=4,
        hand_id=812,
        hand_number=37,
        seats=[{"seat": 2, "user_id": 9, "before": 1500, "after": 0}, ...],
        pots=[{"pot": 0, "winners": [5]}, {"pot": 1, "winners": [5, 6]}],
        eliminated_in={2: 1},
    )

``seats``: every seat dealt in, with its stack at the start and at the end of the hand.
``pots``: each pot (0 the main pot, then the side pots) and the seats that won some of it
(both halves of a split pot). ``eliminated_in``: for each seat that ended with no chips, the
last pot it played for: the pot that knocked it out, whose winners share its bounty.
"""

from __future__ import annotations

from django.dispatch import Signal

# Keyword arguments: table_id, hand_id, hand_number, seats, pots, eliminated_in (see above).
hand_ended = Signal()
