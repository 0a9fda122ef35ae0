"""Verify a finished hand's deal: the commitment to every card, and a replay on its deck."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.fairness import commitment_matches
from tables.models import Hand
from tables.selectors import hand_verification


class Command(BaseCommand):
    help = (
        "Check that a hand's deck hashes to the commitment published before the deal, that "
        "every card opened after it matches, and that its moves replay on that deck."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("hand_id", type=int)

    def handle(self, *args: Any, hand_id: int, **options: Any) -> None:
        hand = Hand.objects.filter(pk=hand_id).first()
        if hand is None:
            raise CommandError(f"There is no hand {hand_id}.")
        result = hand_verification(hand)
        self.stdout.write(f"Hand {hand.pk} (table {hand.table_id}, #{hand.number})")
        self.stdout.write(f"  commitment  {result['commitment']}")
        if not result["complete"]:
            raise CommandError("The hand is still being played: nothing is opened yet.")
        self.stdout.write(f"  board       {' '.join(result['board'])}")
        opened = " ".join(f"{o['position']}:{o['card']}" for o in result["openings"])
        self.stdout.write(f"  opened      {opened}")
        # The host's own check, with the whole deck (which is never published).
        whole = commitment_matches(hand.deck, hand.secret, hand.commitment)
        checks = [
            ("the whole deck hashes to the commitment", whole),
            ("every opened card matches its leaf and the commitment", result["hash_matches"]),
            ("replaying the moves on that deck gives the stored hand", result["deal_matches"]),
        ]
        for text, ok in checks:
            self.stdout.write(f"  {text}: {'yes' if ok else 'NO'}")
        if not all(ok for _text, ok in checks):
            raise CommandError("This hand does NOT verify.")
        self.stdout.write(self.style.SUCCESS("Verified."))
