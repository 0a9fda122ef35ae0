"""Choices built from the engine's enums (core.choices): each vocabulary is defined once, by
the engine, and every field offers all of it, named in the reader's language."""

from __future__ import annotations

import doctest

from django.utils import translation

from core import choices
from core.choices import choices_of
from tables.engine.config import ANTE_KIND_NAMES, GAME_NAMES, AnteKind, Game, Structure
from tournaments.forms import TournamentForm


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(choices).failed == 0


def test_every_member_is_offered_in_the_engines_order() -> None:
    assert [value for value, _ in choices_of(Game, GAME_NAMES)] == ["omaha", "omaha-hi-lo"]


def test_the_tournament_form_offers_the_engines_games_and_structures() -> None:
    fields = TournamentForm.base_fields
    assert [value for value, _ in fields["game"].choices] == [g.value for g in Game]
    assert [value for value, _ in fields["structure"].choices] == [s.value for s in Structure]


def test_a_name_is_worded_in_the_readers_language() -> None:
    names = dict(choices_of(AnteKind, ANTE_KIND_NAMES))
    with translation.override("fr"):
        assert str(names["none"]) == "Pas d’ante"
    with translation.override("en"):
        assert str(names["none"]) == "No ante"
