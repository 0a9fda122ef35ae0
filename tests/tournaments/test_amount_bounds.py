"""Amounts have a home game's bounds, and read well in every message.

A buy-in of 99,999,999,999,999 (a finger left on the 9) was stored; so was a blind of a
billion billion. Every price is now at most ``MONEY_MAX``, every number of chips at most
``CHIPS_MAX`` (``core.amounts``): on the tournament's settings form, in the structure
editor, the console's stacks, the services and the models' validators (the admin). And an
amount in a message is grouped and counted the reader's way: "10,000 chips", "1 chip".
"""

from __future__ import annotations

import doctest

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core import amounts
from series.models import Event, Player, Result
from series.result_forms import CorrectionRowForm
from tests.tournaments.factories import start
from tests.tournaments.settings_form import form_data
from tournaments import blind_structures as pure
from tournaments.blind_structure_forms import GeneratorForm, RowForm
from tournaments.errors import TournamentError
from tournaments.forms import RebuyForm
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
    TournamentAction,
)
from tournaments.services import entries, lifecycle

MONEY_OVER = str(amounts.MONEY_MAX + 1)
CHIPS_OVER = str(amounts.CHIPS_MAX + 1)
FINGER_ON_THE_NINE = "99999999999999"


def test_the_bounds_are_a_home_games_and_written_in_one_place() -> None:
    assert amounts.MONEY_MAX == 1_000_000
    assert amounts.CHIPS_MAX == 1_000_000_000
    assert amounts.PRIZE_MAX >= amounts.MONEY_MAX
    assert doctest.testmod(amounts).failed == 0


def test_a_buy_in_of_99_999_999_999_999_is_refused(
    event: Event, blind_structure: BlindStructure, director_client: Client
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    response = director_client.post(url, form_data(blind_structure, buy_in=FINGER_ON_THE_NINE))
    assert response.status_code == 400
    assert "Enter at most 1,000,000." in response.content.decode()
    assert not Tournament.objects.exists()
    event.refresh_from_db()
    assert event.buy_in == 20


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("buy_in", MONEY_OVER, "Enter at most 1,000,000."),
        ("fee", MONEY_OVER, "Enter at most 1,000,000."),
        ("bounty", MONEY_OVER, "Enter at most 1,000,000."),
        ("money_unit", MONEY_OVER, "Enter at most 1,000,000."),
        ("rebuy_price", MONEY_OVER, "Enter at most 1,000,000."),
        ("addon_price", MONEY_OVER, "Enter at most 1,000,000."),
        ("starting_stack", CHIPS_OVER, "Enter at most 1,000,000,000 chips."),
        ("rebuy_chips", CHIPS_OVER, "Enter at most 1,000,000,000 chips."),
        ("addon_chips", CHIPS_OVER, "Enter at most 1,000,000,000 chips."),
        ("rebuy_max_stack", CHIPS_OVER, "Enter at most 1,000,000,000 chips."),
    ],
)
def test_the_settings_form_bounds_every_amount(
    event: Event,
    blind_structure: BlindStructure,
    director_client: Client,
    field: str,
    value: str,
    message: str,
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    page = director_client.get(url).content.decode()
    limit = amounts.CHIPS_MAX if "chips" in message else amounts.MONEY_MAX
    assert f'name="{field}"' in page and f'max="{limit}"' in page
    response = director_client.post(url, form_data(blind_structure, **{field: value}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_largest_amounts_are_taken(
    event: Event, blind_structure: BlindStructure, director_client: Client
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    response = director_client.post(
        url,
        form_data(
            blind_structure,
            buy_in=str(amounts.MONEY_MAX),
            starting_stack=str(amounts.CHIPS_MAX),
            rebuy_chips=str(amounts.CHIPS_MAX),
        ),
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.buy_in == amounts.MONEY_MAX and event.starting_stack == amounts.CHIPS_MAX


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("buy_in", 99_999_999_999_999),
        ("fee", amounts.MONEY_MAX + 1),
        ("rebuy_price", amounts.MONEY_MAX + 1),
        ("starting_stack", amounts.CHIPS_MAX + 1),
        ("addon_chips", amounts.CHIPS_MAX + 1),
    ],
)
def test_the_services_refuse_an_amount_past_its_bound(
    event: Event, blind_structure: BlindStructure, director: User, setting: str, value: int
) -> None:
    with pytest.raises(TournamentError) as refused:
        lifecycle.tournament_create(
            event, by=director, blind_structure=blind_structure, **{setting: value}
        )
    assert refused.value.field == setting
    assert "at most 1,000,000" in refused.value.message
    assert not Tournament.objects.exists()


def test_the_models_validate_their_amounts(
    event: Event, tournament: Tournament, blind_structure: BlindStructure
) -> None:
    event.buy_in = 99_999_999_999_999
    event.starting_stack = amounts.CHIPS_MAX + 1
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert set(refused.value.message_dict) >= {"buy_in", "starting_stack"}
    assert refused.value.message_dict["buy_in"] == ["Enter at most 1,000,000."]

    tournament.rebuy_price = amounts.MONEY_MAX + 1
    tournament.addon_chips = amounts.CHIPS_MAX + 1
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert set(refused.value.message_dict) >= {"rebuy_price", "addon_chips"}

    level = BlindLevel(
        blind_structure=blind_structure,
        position=99,
        kind=LevelKind.LEVEL,
        minutes=20,
        small_blind=amounts.CHIPS_MAX + 1,
        big_blind=amounts.CHIPS_MAX + 2,
    )
    with pytest.raises(ValidationError) as refused:
        level.full_clean()
    assert set(refused.value.message_dict) >= {"small_blind", "big_blind"}

    result = Result(event=event, player=Player.objects.create(name="Ann"), place=1)
    result.prize = amounts.PRIZE_MAX + 1
    with pytest.raises(ValidationError) as refused:
        result.full_clean()
    assert "prize" in refused.value.message_dict


def test_the_event_admin_refuses_a_buy_in_past_the_bound(event: Event, db: None) -> None:
    admin = User.objects.create_superuser("root", password="x")
    client = Client()
    client.force_login(admin)
    url = reverse("admin:series_event_change", args=[event.pk])
    data = {
        "season": str(event.season_id),
        "name": event.name,
        "starts_at_0": event.starts_at.strftime("%Y-%m-%d"),
        "starts_at_1": event.starts_at.strftime("%H:%M:%S"),
        "venue": event.venue,
        "game": event.game,
        "structure": event.structure,
        "buy_in": FINGER_ON_THE_NINE,
        "fee": "5",
        "starting_stack": "10000",
        "notes": "",
        "number": "",
        "counts": "on",
        "finished_at_0": "",
        "finished_at_1": "",
    }
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with its error
    assert "Enter at most 1,000,000." in response.content.decode()
    event.refresh_from_db()
    assert event.buy_in == 20


def test_the_blind_structure_editor_bounds_blinds_and_stacks() -> None:
    row = pure.Row.level(25, 50)
    form = RowForm(
        {"minutes": "20", "small_blind": CHIPS_OVER, "big_blind": CHIPS_OVER, "ante_kind": "none"},
        row=row,
        for_limit=False,
    )
    assert not form.is_valid()
    assert form.errors["big_blind"] == ["Enter at most 1,000,000,000 chips."]
    generator = GeneratorForm(
        {
            "name": "Deep",
            "betting": "pot-limit",
            "starting_stack": CHIPS_OVER,
            "players": "10",
            "hours": "4",
            "chip_set": "25, 100, 500",
            "level_minutes": "20",
            "break_every": "4",
            "break_minutes": "10",
            "ante_kind": "none",
        }
    )
    assert not generator.is_valid()
    assert "starting_stack" in generator.errors
    assert RebuyForm({"stack": CHIPS_OVER}).errors["stack"] == [
        "Enter at most 1,000,000,000 chips."
    ]


def test_amounts_read_the_readers_way() -> None:
    with translation.override("en"):
        assert amounts.chips(10000) == "10,000 chips"
        assert amounts.chips(1) == "1 chip"
        assert amounts.chips(0) == "0 chips"
        assert amounts.money(1500) == "1,500"
    with translation.override("fr"):
        # Grouping is the language's format (no catalog needed): a non-breaking space.
        assert amounts.number(10000) == "10\u00a0000"
        assert amounts.money(1500) == "1\u00a0500"


def test_a_rebuy_refusal_and_its_log_line_read_well(tournament: Tournament, director: User) -> None:
    start(tournament)
    ann = Entry.objects.create(
        tournament=tournament,
        player=Player.objects.create(name="Ann"),
        state=EntryState.PLAYING,
    )
    with translation.override("en"):
        with pytest.raises(TournamentError) as refused:
            entries.entry_rebuy(ann.pk, by=director, stack=12000)
        assert refused.value.message == (
            "A rebuy is only allowed at or below 10,000 chips; Ann has 12,000 chips."
        )
        entries.entry_rebuy(ann.pk, by=director, stack=1)
        line = TournamentAction.objects.filter(tournament=tournament).latest("pk")
        assert line.summary_text == "Rebuy: Ann (1 of 2, had 1 chip)"


def test_a_bounty_above_the_buy_in_is_said_in_grouped_money(
    event: Event, blind_structure: BlindStructure, director: User
) -> None:
    with translation.override("en"), pytest.raises(TournamentError) as refused:
        lifecycle.tournament_create(
            event, by=director, blind_structure=blind_structure, buy_in=1500, bounty=2500
        )
    assert refused.value.message == "The bounty (2,500) cannot be more than the buy-in (1,500)."


def test_a_corrected_prize_has_the_prizes_bound() -> None:
    form = CorrectionRowForm({"place": "1", "prize": str(amounts.PRIZE_MAX + 1)})
    assert not form.is_valid()
    assert form.errors["prize"] == ["Enter at most 100,000,000."]
    assert f'max="{amounts.PRIZE_MAX}"' in str(form["prize"])
