"""The live tables in the reader's language.

A socket speaks the language of its own handshake (the language cookie, then
Accept-Language), whoever caused the error or the change; the engine's refusals are worded
by their rule codes; snapshots and stored hands carry data, worded where they are read.

The French here comes from a small catalog built for these tests (``french``), so they do
not depend on the project's translations being complete or compiled.
"""

from __future__ import annotations

import ast
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from config.asgi import application
from tables import services
from tables.engine.config import Config, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.evaluator import describe_high, describe_low
from tables.engine.state import Hand as EngineHand
from tables.engine.state import SeatSpec
from tables.i18n import (
    RULE_MESSAGES,
    awards_words,
    hand_shape,
    language_from_scope,
    render,
    rule_message,
    shape_words,
)
from tables.models import Hand, Table
from tests.tables.conftest import deal
from tests.tables.test_consumers import Viewer, cookie_for, drain_all

ENGINE = Path(__file__).resolve().parents[2] / "tables" / "engine"

FRENCH = {
    "it is not your turn": "ce n’est pas votre tour",
    "raise to %(amount)s is below the minimum %(minimum)s": (
        "une relance à %(amount)s est inférieure au minimum de %(minimum)s"
    ),
    "cannot check facing a bet of %(bet)s; call %(call)s or fold": (
        "impossible de dire parole face à une mise de %(bet)s\u00a0; suivez %(call)s ou couchez-vous"
    ),
    "there is no showdown yet; %(action)s is not possible": (
        "ce n’est pas encore l’abattage\u00a0; « %(action)s » n’est pas possible"
    ),
    "Live tables": "Tables en direct",
    "%(name)s wins %(amount)s": "%(name)s gagne %(amount)s",
    "%(award)s with %(hand)s": "%(award)s avec %(hand)s",
    "Flush, %(one)s high": "Couleur, hauteur %(one)s",
    "ace": "as",
    "king": "roi",
    "hearts": "cœur",
    "%(rank)s of %(suit)s": "%(rank)s de %(suit)s",
}
FRENCH_IN_CONTEXT = {("poker action", "muck"): "jeter ses cartes", ("card rank", "K"): "R"}


@pytest.fixture
def french() -> None:
    """The project's French catalog (locale/fr) has the messages these tests read."""
    with translation.override("fr"):
        for msgid, msgstr in FRENCH.items():
            assert gettext(msgid) == msgstr, msgid
        for (context, msgid), msgstr in FRENCH_IN_CONTEXT.items():
            assert pgettext(context, msgid) == msgstr, msgid


# ---------------------------------------------------------------------- a socket's language


def scope(**headers: str) -> dict[str, Any]:
    return {"headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


def test_the_language_cookie_wins_over_accept_language(french: None) -> None:
    assert (
        language_from_scope(scope(cookie="a=1; django_language=fr", accept_language="en")) == "fr"
    )
    assert language_from_scope(scope(cookie="django_language=en", accept_language="fr")) == "en"


def test_accept_language_is_read_by_preference(french: None) -> None:
    assert language_from_scope(scope(accept_language="de-DE, fr;q=0.8, en;q=0.5")) == "fr"
    assert language_from_scope(scope(accept_language="en;q=0.4, fr-CA;q=0.9")) == "fr"
    assert language_from_scope(scope(accept_language="fr;q=0, en")) == "en"


def test_an_unknown_or_missing_language_is_the_sites(french: None) -> None:
    assert language_from_scope(scope(cookie="django_language=xx", accept_language="de")) == "en"
    assert language_from_scope({}) == "en"


# ---------------------------------------------------------------------- the engine's refusals


def rule_codes_in_source() -> list[tuple[str, int, set[str]]]:
    """Every ``RuleError(...)`` the engine writes: file, line and the codes it may carry."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"):
                continue
            code = next((k.value for k in node.keywords if k.arg == "code"), None)
            if isinstance(code, ast.Attribute) and code.attr == "code":
                continue  # passes on the code of the error it wraps (phh.py)
            codes = (
                {n.value for n in ast.walk(code) if isinstance(n, ast.Constant)}
                if code is not None
                else set()
            )
            found.append((path.name, node.lineno, codes))
    return found


def test_every_rule_error_of_the_engine_has_a_code_the_tables_can_word() -> None:
    raised = rule_codes_in_source()
    assert len(raised) > 60  # the walk found the engine's errors
    for name, line, codes in raised:
        assert codes, f"{name}:{line}: a RuleError without a code"
        unknown = codes - set(RULE_MESSAGES)
        assert not unknown, f"{name}:{line}: codes {unknown} have no message in tables.i18n"


def heads_up(structure: Structure = Structure.NO_LIMIT) -> EngineHand:
    deck = list(range(52))
    return EngineHand.start(
        Config(Game.OMAHA_HI_LO, structure, big_blind=40),
        [SeatSpec(1, 1000), SeatSpec(2, 1000)],
        button=1,
        deck=deck,
    )


def test_a_raise_below_the_minimum_names_its_rule_and_numbers() -> None:
    hand = heads_up()
    seat = hand.to_act
    with pytest.raises(RuleError) as caught:
        hand.act(seat, "raise", 50)
    assert caught.value.code == "raise_below_minimum"
    assert caught.value.params == {"amount": 50, "minimum": 80}
    message, params = rule_message(caught.value)
    # The English the tables show is the engine's own sentence.
    assert render(message, params) == str(caught.value) == "raise to 50 is below the minimum 80"


def test_a_refusal_is_worded_in_the_active_language(french: None) -> None:
    hand = heads_up()
    with pytest.raises(RuleError) as caught:
        hand.act(hand.to_act, "check")
    message, params = rule_message(caught.value)
    with translation.override("fr"):
        assert render(message, params) == (
            "impossible de dire parole face à une mise de 40\u00a0; suivez 20 ou couchez-vous"
        )
    with translation.override("en"):
        assert render(message, params) == "cannot check facing a bet of 40; call 20 or fold"


def test_a_moves_name_inside_a_refusal_is_worded_too(french: None) -> None:
    hand = heads_up()
    with pytest.raises(RuleError) as caught:
        hand.act(hand.to_act, "muck")
    message, params = rule_message(caught.value)
    with translation.override("fr"):
        assert render(message, params) == (
            "ce n’est pas encore l’abattage\u00a0; « jeter ses cartes » n’est pas possible"
        )


def test_a_table_error_is_worded_when_it_is_read(french: None) -> None:
    error = services.TableError("not_your_turn", translation.gettext_lazy("it is not your turn"))
    with translation.override("fr"):
        assert error.message == "ce n’est pas votre tour"
    assert error.message == "it is not your turn"


# ---------------------------------------------------------------------- hands in words


def every_high_description() -> set[str]:
    found = set()
    for category in range(9):
        for first in range(13):
            for third in range(13):
                value = category << 20 | first << 16 | first << 12 | third << 8 | third << 4
                found.add(describe_high(value))
    return found


def test_every_high_hand_the_engine_names_reads_the_same_in_english() -> None:
    descriptions = every_high_description()
    assert "Royal flush" in descriptions and "Full house, kings full of fives" in descriptions
    for text in descriptions:
        assert shape_words(hand_shape(text)) == text


def test_a_low_is_its_ranks() -> None:
    low = describe_low(255 - 0b11111)
    assert hand_shape(low) == {"low": ["5", "4", "3", "2", "A"]}
    assert shape_words(hand_shape(low)) == "Low 5-4-3-2-A"
    assert hand_shape("") is None


def test_awards_are_worded_in_the_readers_language(french: None) -> None:
    awards = [
        {
            "seat": 1,
            "name": "ann",
            "amount": 24,
            "half": "whole",
            "hand": hand_shape("Flush, ace high"),
        }
    ]
    assert awards_words(awards) == "ann wins 24 with Flush, ace high"
    with translation.override("fr"):
        assert awards_words(awards) == "ann gagne 24 avec Couleur, hauteur as"


# ---------------------------------------------------------------------- sockets


async def open_socket(table: Table, user: User, *headers: tuple[bytes, bytes]) -> Viewer:
    cookie = await cookie_for(user)
    extra = dict(headers)
    if b"cookie" in extra:
        cookie = f"{cookie}; {extra.pop(b'cookie').decode()}"
    sent = [(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", cookie.encode())]
    sent += list(extra.items())
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=sent)
    connected, _ = await communicator.connect()
    assert connected
    viewer = Viewer(user.username, communicator, user)
    viewer.frames.append(await communicator.receive_json_from(timeout=10))
    await viewer.drain()
    return viewer


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_errors_reach_each_socket_in_its_own_language(
    french: None, seated_table: Table, players: list[User]
) -> None:
    ann, ben, cal = players
    viewers = [
        await open_socket(seated_table, ann, (b"cookie", b"django_language=fr")),
        await open_socket(seated_table, ben, (b"accept-language", b"fr-FR,fr;q=0.9")),
        await open_socket(seated_table, cal, (b"accept-language", b"en-GB,en;q=0.9")),
    ]
    try:
        await database_sync_to_async(deal)(seated_table)
        await drain_all(viewers, seated_table)
        to_act = viewers[0].snapshot["hand"]["to_act"]
        actor = next(v for v in viewers if v.snapshot["you"]["seat"] == to_act)
        legal = actor.snapshot["you"]["legal"]
        act = {"type": "act", "hand": legal["hand"], "version": legal["version"]}

        # A TableError: each player who is not to act hears it in their own language.
        for viewer in viewers:
            if viewer is actor:
                continue
            await viewer.send({**act, "action": "call"})
            reply = await viewer.reply()
            assert reply["code"] == "not_your_turn"
            english = viewer.name == "cal"
            assert reply["message"] == (
                "it is not your turn" if english else "ce n’est pas votre tour"
            )

        # The engine's refusal (illegal_action), worded by its rule code.
        low = legal["raise"]["min"] - 1
        await actor.send({**act, "action": "raise", "amount": low})
        reply = await actor.reply()
        assert reply["code"] == "illegal_action"
        minimum = legal["raise"]["min"]
        if actor.name == "cal":
            assert reply["message"] == f"raise to {low} is below the minimum {minimum}"
        else:
            assert reply["message"] == (
                f"une relance à {low} est inférieure au minimum de {minimum}"
            )
    finally:
        for viewer in viewers:
            await viewer.ws.disconnect()


def a_hand_everyone_folds(table: Table) -> Hand:
    """Deal a hand and fold to the big blind."""
    deal(table)
    for _ in range(table.seat_count):
        table.refresh_from_db()
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        assert hand is not None
        if hand.is_complete:
            return hand
        seat = table.seats.get(number=hand.to_act)
        services.table_act(table.pk, seat.user, hand.pk, table.version, "fold")
    raise AssertionError("the hand did not end when everyone folded")


@pytest.mark.django_db
def test_a_snapshot_carries_no_words_for_a_finished_hand(
    seated_table: Table, players: list[User]
) -> None:
    hand = a_hand_everyone_folds(seated_table)
    assert hand.awards
    award = hand.awards[0]
    assert set(award) == {"seat", "name", "amount", "half", "hand"}
    from tables.runtime.state import STATE

    _version, text = STATE.snapshot_text(seated_table.pk, None)
    snapshot = json.loads(text)
    assert "label" not in snapshot["table"] and "summary" not in snapshot["hand"]
    assert snapshot["recent_hands"][0]["awards"] == hand.awards
    assert " wins " not in text


# ---------------------------------------------------------------------- pages


@pytest.mark.django_db
def test_the_lobby_reads_in_french(french: None, player_client: Client) -> None:
    page = player_client.get(reverse("tables:lobby"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tables en direct" in page


@pytest.mark.django_db
def test_my_hands_word_the_awards_in_french(
    french: None, player_client: Client, player: User, director: User
) -> None:
    table = services.table_create(created_by=director, name="Thursday Omaha", big_blind=2)
    services.seat_take(table.pk, player, 1, table.max_buy_in)
    hand = Hand.objects.create(
        table=table,
        number=1,
        button=1,
        deck="",
        secret="",
        commitment="",
        started_at=timezone.now() - timedelta(minutes=1),
        ended_at=timezone.now(),
        summary="ann wins 24 with Flush, ace high",
        awards=[
            {
                "seat": 1,
                "name": "ann",
                "amount": 24,
                "half": "whole",
                "hand": hand_shape("Flush, ace high"),
            }
        ],
    )
    hand.handplayer_set.create(user=player, seat=1, stack_before=100)
    page = player_client.get(reverse("tables:hands"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "ann gagne 24 avec Couleur, hauteur as" in page


def test_server_drawn_cards_read_in_french(french: None) -> None:
    from tables.templatetags.cards import card

    with translation.override("fr"):
        html = str(card("Kh"))
    assert 'aria-label="roi de cœur"' in html
    assert '<span class="pc-rank">R</span>' in html


@pytest.mark.django_db
def test_the_admin_words_a_hands_awards(seated_table: Table) -> None:
    a_hand_everyone_folds(seated_table)
    admin = User.objects.create_superuser("root", password="x")
    client = Client()
    client.force_login(admin)
    page = client.get(reverse("admin:tables_hand_changelist")).content.decode()
    assert "What happened" in page and " wins " in page
