"""Verify a finished hand's deal: recompute the commitment and replay the hand on its deck."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.models import Hand
from tables.selectors import hand_verification


class Command(BaseCommand):
    help = "Check that a hand's revealed deck and secret hash to its commitment and replay it."

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
            raise CommandError("The hand is still being played: nothing is revealed yet.")
        self.stdout.write(f"  deck        {result['deck']}")
        self.stdout.write(f"  secret      {result['secret']}")
        self.stdout.write(f"  board       {' '.join(result['board'])}")
        ok = result["hash_matches"] and result["deal_matches"]
        self.stdout.write(
            f"  sha256(deck:secret) matches the commitment: {'yes' if result['hash_matches'] else 'NO'}"
        )
        self.stdout.write(
            f"  replaying the moves on that deck gives the stored hand: "
            f"{'yes' if result['deal_matches'] else 'NO'}"
        )
        if not ok:
            raise CommandError("This hand does NOT verify.")
        self.stdout.write(self.style.SUCCESS("Verified."))
