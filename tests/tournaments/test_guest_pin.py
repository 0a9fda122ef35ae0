"""Guest PINs: issued on the seat cards, checked (throttled) on the night's PIN page, and
remembered by the session for the night page (``tournaments.night_access``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from series.models import Player
from tests.tournaments.factories import make_tournament, seat
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, GuestPin, Tournament
from tournaments.night_access import SESSION_KEY, night_pin_remember, night_player
from tournaments.services import guest_pins
from tournaments.services.guest_pins import (
    WRONG_TRIES_PER_ADDRESS,
    WRONG_TRIES_PER_ADDRESS_AT_NAME,
    WRONG_TRIES_PER_PLAYER,
    guest_pin_check,
    guest_pin_issue,
)

ADDRESS = "203.0.113.7"


@pytest.fixture
def site_cache() -> None:
    """The test counts in the site's configured cache (Redis in the distributed mode)."""


@pytest.fixture(autouse=True)
def own_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """A cache of the test's own: the wrong tries of one test never count in the next (ids
    come round again on SQLite), unless the test asks for ``site_cache``."""
    if "site_cache" in request.fixturenames:
        yield
        return
    location = f"guest-pins-{uuid.uuid4()}"
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": location,
            }
        }
    ):
        yield


@pytest.fixture
def night(tournament: Tournament, player: User) -> dict[str, Entry]:
    """The night in play: two guests at table 1, and Pat, who has an account, at table 2."""
    entries = seat(tournament, {1: ["Gus", "Gwen"]})
    pat = Player.objects.create(user=player, name="Patricia Accountholder")
    entries["pat"] = Entry.objects.create(
        tournament=tournament,
        player=pat,
        state=EntryState.PLAYING,
        table_number=2,
        seat_number=1,
    )
    return entries


@pytest.fixture
def gus(night: dict[str, Entry]) -> Player:
    return night["Gus"].player


@pytest.fixture
def gus_pin(tournament: Tournament, gus: Player) -> str:
    return guest_pin_issue(tournament, gus)


def a_session() -> SessionBase:
    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore()


def wrong(pin: str) -> str:
    """A PIN of the right shape that is not ``pin``."""
    return f"{(int(pin) + 1) % 1_000_000:06d}"


def test_issue_gives_six_digits_and_stores_no_pin(tournament: Tournament, gus: Player) -> None:
    pin = guest_pin_issue(tournament, gus)
    assert len(pin) == 6 and pin.isdigit()
    row = GuestPin.objects.get(tournament=tournament, player=gus)
    assert pin not in row.nonce
    assert len(row.nonce) == 32
    assert timezone.now() + timedelta(hours=11) < row.expires_at
    assert row.expires_at <= timezone.now() + timedelta(hours=12)


def test_the_right_pin_opens_the_guests_night(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    proof = guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    assert proof.player == gus
    session = a_session()
    night_pin_remember(session, tournament.pk, proof.player.pk, proof.expires_at)
    assert night_player(AnonymousUser(), session, tournament.pk) == gus


def test_spaces_typed_in_the_pin_are_ignored(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    typed = f" {gus_pin[:3]} {gus_pin[3:]} "
    assert guest_pin_check(tournament.pk, gus.pk, typed, ADDRESS).player == gus


def test_a_wrong_pin_is_refused_with_the_tries_left(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    assert refusal.value.message == "Wrong PIN. 2 tries left before a wait."


@pytest.mark.parametrize("typed", ["", "12345", "1234567", "12a456", "١٢٣٤٥٦"])
def test_a_pin_of_the_wrong_shape_is_refused_and_not_counted(
    tournament: Tournament, gus: Player, gus_pin: str, typed: str
) -> None:
    for _ in range(WRONG_TRIES_PER_PLAYER + 1):
        with pytest.raises(TournamentError) as refusal:
            guest_pin_check(tournament.pk, gus.pk, typed, ADDRESS)
        assert refusal.value.message == "The PIN is the 6 digits on your seat card."
    assert guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS).player == gus


def test_an_expired_pin_is_refused(tournament: Tournament, gus: Player, gus_pin: str) -> None:
    GuestPin.objects.filter(player=gus).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    assert "no PIN for you tonight" in refusal.value.message


def test_the_session_forgets_the_guest_when_the_pin_expires(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    proof = guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    session = a_session()
    night_pin_remember(session, tournament.pk, gus.pk, proof.expires_at)
    past = timezone.now() - timedelta(minutes=1)
    GuestPin.objects.filter(player=gus).update(expires_at=past)
    assert night_player(AnonymousUser(), session, tournament.pk) is None
    night_pin_remember(session, tournament.pk, gus.pk, past)
    assert night_player(AnonymousUser(), session, tournament.pk) is None


def test_a_new_pin_replaces_the_old_one_but_keeps_phones_open(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    proof = guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    session = a_session()
    night_pin_remember(session, tournament.pk, gus.pk, proof.expires_at)
    new_pin = guest_pin_issue(tournament, gus)
    assert GuestPin.objects.filter(player=gus).count() == 1
    if new_pin != gus_pin:  # one chance in a million they are the same
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    # A reprint after a table breaks does not send the guests back to the PIN page.
    assert night_player(AnonymousUser(), session, tournament.pk) == gus
    assert guest_pin_check(tournament.pk, gus.pk, new_pin, ADDRESS).player == gus


def test_wrong_tries_per_name_are_throttled_with_the_wait(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    for n in range(WRONG_TRIES_PER_PLAYER):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), f"198.51.100.{n}")
    # Even the right PIN, from another address, waits: the name is locked for a while.
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    assert refusal.value.message == "Too many wrong PINs. Try again in 15 minutes."
    # Another guest is not held up.
    gwen = Player.objects.get(name="Gwen")
    gwen_pin = guest_pin_issue(tournament, gwen)
    assert guest_pin_check(tournament.pk, gwen.pk, gwen_pin, ADDRESS).player == gwen


def test_the_last_wrong_try_says_how_long_to_wait(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    for _ in range(WRONG_TRIES_PER_ADDRESS_AT_NAME - 1):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    assert refusal.value.message == "Too many wrong PINs. Try again in 15 minutes."


def test_the_wait_ends_after_the_window(
    tournament: Tournament, gus: Player, gus_pin: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(WRONG_TRIES_PER_ADDRESS_AT_NAME):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    start = guest_pins.time.time()
    monkeypatch.setattr(guest_pins.time, "time", lambda: start + 10 * 60)
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    assert refusal.value.message == "Too many wrong PINs. Try again in 5 minutes."
    # The cache forgets the count at the end of the window.
    cache.clear()
    assert guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS).player == gus


def test_wrong_tries_per_address_are_throttled(tournament: Tournament) -> None:
    guests = seat(tournament, {3: [f"Guest {n}" for n in range(6)]})
    pins = {e.player.pk: guest_pin_issue(tournament, e.player) for e in guests.values()}
    ids = list(pins)
    # Two wrong tries at each name: no name is locked, but the address is.
    for n in range(WRONG_TRIES_PER_ADDRESS):
        player_id = ids[n // 2]
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, player_id, wrong(pins[player_id]), ADDRESS)
    last = ids[-1]
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, last, pins[last], ADDRESS)
    assert refusal.value.message.startswith("Too many wrong PINs. Try again in")
    # The same guest from another address gets in.
    assert guest_pin_check(tournament.pk, last, pins[last], "192.0.2.44").player.pk == last


def test_a_right_pin_forgives_the_names_slips_not_the_addresses(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    for _ in range(WRONG_TRIES_PER_ADDRESS_AT_NAME - 1):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    assert refusal.value.message == "Wrong PIN. 2 tries left before a wait."
    # The address's slips across names are kept: the two before, and this one.
    address_key = guest_pins._keys(tournament.pk, gus.pk, "", ADDRESS)["address"]
    assert cache.get(f"{address_key}:count") == WRONG_TRIES_PER_ADDRESS_AT_NAME


def test_the_throttle_counts_in_the_sites_cache(
    site_cache: None, tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    """The site's own cache (Redis in the distributed mode, so every process counts)."""
    # Redis outlives the test database, whose ids come round again: the counts of a name
    # are kept per PIN, whose nonce is new, and the address is new too.
    address = f"site-cache-{uuid.uuid4()}"
    for _ in range(WRONG_TRIES_PER_ADDRESS_AT_NAME):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), address)
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, gus_pin, address)
    assert refusal.value.message == "Too many wrong PINs. Try again in 15 minutes."


def test_another_tournaments_pin_is_refused(
    tournament: Tournament, blind_structure: object, gus: Player, gus_pin: str
) -> None:
    other = make_tournament(
        tournament.event.season, tournament.blind_structure, by=None, starts_in=timedelta(days=7)
    )
    Entry.objects.create(tournament=other, player=gus)
    other_pin = guest_pin_issue(other, gus)
    if other_pin != gus_pin:
        with pytest.raises(TournamentError):
            guest_pin_check(other.pk, gus.pk, gus_pin, ADDRESS)
    # A session proved for one tournament opens only that one.
    proof = guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    session = a_session()
    night_pin_remember(session, tournament.pk, gus.pk, proof.expires_at)
    assert night_player(AnonymousUser(), session, other.pk) is None


def test_a_name_not_among_the_guests_is_refused(
    tournament: Tournament, night: dict[str, Entry], gus_pin: str
) -> None:
    outsider = Player.objects.create(name="Olga")
    for player_id in (night["pat"].player.pk, outsider.pk, 999_999):
        with pytest.raises(TournamentError) as refusal:
            guest_pin_check(tournament.pk, player_id, gus_pin, ADDRESS)
        assert refusal.value.message == "Pick your name from the list."


def test_only_guests_of_the_tournament_get_a_pin(
    tournament: Tournament, night: dict[str, Entry]
) -> None:
    with pytest.raises(TournamentError):
        guest_pin_issue(tournament, night["pat"].player)
    with pytest.raises(TournamentError):
        guest_pin_issue(tournament, Player.objects.create(name="Olga"))
    assert not GuestPin.objects.exists()


def test_a_tampered_session_opens_nothing(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    row = GuestPin.objects.get(player=gus)
    session = a_session()
    gwen = Player.objects.get(name="Gwen")
    for proof in (
        {"player": gwen.pk, "expires_at": row.expires_at.isoformat()},
        {"player": str(gus.pk), "expires_at": row.expires_at.isoformat()},
        {"player": gus.pk, "expires_at": "tomorrow"},
        {"player": gus.pk},
        "yes",
    ):
        session[SESSION_KEY] = {str(tournament.pk): proof}
        assert night_player(AnonymousUser(), session, tournament.pk) is None


def test_a_logged_in_user_is_their_own_player(
    tournament: Tournament, night: dict[str, Entry], player: User
) -> None:
    pat = night["pat"].player
    user = player
    assert night_player(user, a_session(), tournament.pk) == pat
    nobody = User.objects.create_user("nobody")
    assert night_player(nobody, a_session(), tournament.pk) is None
    assert not Player.objects.filter(user=nobody).exists()


# ----------------------------------------------------------------------------- the pages


def pin_url(tournament: Tournament) -> str:
    return reverse("tournaments:night_pin", args=[tournament.pk])


def night_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/night/"


def test_the_pin_page_lists_the_guests_only(
    client: Client, tournament: Tournament, night: dict[str, Entry]
) -> None:
    User.objects.filter(username="pat").update(email="pat@example.com")
    Entry.objects.create(
        tournament=tournament,
        player=Player.objects.create(name="Ulla"),
        state=EntryState.UNREGISTERED,
    )
    page = client.get(pin_url(tournament)).content.decode()
    assert "Gus" in page and "Gwen" in page
    assert "Patricia" not in page
    assert "@" not in page.split("<main", 1)[1].split("</main>", 1)[0]
    assert "Ulla" not in page


def test_the_right_pin_goes_to_the_night_page(
    client: Client, tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    response = client.post(pin_url(tournament), {"player": gus.pk, "pin": gus_pin})
    assert response.status_code == 302
    assert response.url == night_url(tournament)
    assert night_player(AnonymousUser(), client.session, tournament.pk) == gus
    # Back on the PIN page, the guest goes straight to their night.
    assert client.get(pin_url(tournament)).url == night_url(tournament)


def test_a_wrong_pin_on_the_page_says_so_and_remembers_nothing(
    client: Client, tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    response = client.post(pin_url(tournament), {"player": gus.pk, "pin": wrong(gus_pin)})
    assert response.status_code == 400
    assert "Wrong PIN. 2 tries left before a wait." in response.content.decode()
    assert SESSION_KEY not in client.session


@pytest.mark.parametrize("tampered", ["pat", "999999", "abc", ""])
def test_a_tampered_name_on_the_page_is_refused(
    client: Client, tournament: Tournament, night: dict[str, Entry], gus_pin: str, tampered: str
) -> None:
    value = str(night["pat"].player.pk) if tampered == "pat" else tampered
    response = client.post(pin_url(tournament), {"player": value, "pin": gus_pin})
    assert response.status_code == 400
    assert SESSION_KEY not in client.session


def test_the_pin_page_of_no_tournament_is_not_found(client: Client, db: None) -> None:
    assert client.get(reverse("tournaments:night_pin", args=[999_999])).status_code == 404


def test_a_logged_in_player_skips_the_pin(
    player_client: Client, tournament: Tournament, night: dict[str, Entry]
) -> None:
    assert player_client.get(pin_url(tournament)).url == night_url(tournament)


# ----------------------------------------------------------------------------- seat cards


def test_seat_cards_print_each_guests_pin(
    director_client: Client, tournament: Tournament, night: dict[str, Entry]
) -> None:
    page = director_client.get(
        reverse("tournaments:sheet_seats", args=[tournament.pk])
    ).content.decode()
    assert page.count('class="seat-card-pin-digits"') == 2  # Gus and Gwen, not Pat
    assert f"testserver/tournaments/{tournament.pk}/night/pin/" in page
    gus = night["Gus"].player
    pin = page.split('class="seat-card-pin-digits">', 1)[1][:6]
    assert guest_pin_check(tournament.pk, gus.pk, pin, ADDRESS).player == gus
    # A second look at the sheet (a reload, a reprint) shows the same PINs: the cards
    # already handed out keep working.
    again = director_client.get(
        reverse("tournaments:sheet_seats", args=[tournament.pk])
    ).content.decode()
    assert again.split('class="seat-card-pin-digits">', 1)[1][:6] == pin


def test_only_a_director_sees_the_seat_cards(
    player_client: Client, client: Client, tournament: Tournament, night: dict[str, Entry]
) -> None:
    url = reverse("tournaments:sheet_seats", args=[tournament.pk])
    assert player_client.get(url).status_code == 403
    assert client.get(url).status_code == 302
    assert not GuestPin.objects.exists()


# ------------------------------------------------------------------------- locked out


def test_one_address_typing_wrong_pins_cannot_lock_the_guest_out(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    # Someone at the next table types PIN after PIN at Gus's name: their address waits...
    for _ in range(3 * WRONG_TRIES_PER_PLAYER):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, wrong(gus_pin), ADDRESS)
    with pytest.raises(TournamentError) as refusal:
        guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS)
    assert refusal.value.message.startswith("Too many wrong PINs")
    # ... and Gus, on his phone, gets in.
    assert guest_pin_check(tournament.pk, gus.pk, gus_pin, "192.0.2.80").player == gus
    assert guest_pins.guest_pins_locked(tournament) == {}


def lock_out(tournament: Tournament, guest: Player, pin: str) -> None:
    """Wrong PINs at ``guest``'s name from enough addresses to lock the name."""
    for n in range(WRONG_TRIES_PER_PLAYER):
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, guest.pk, wrong(pin), f"198.51.100.{n}")


def test_a_name_locked_from_many_addresses_is_shown_and_a_new_pin_ends_the_lock(
    tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    lock_out(tournament, gus, gus_pin)
    with pytest.raises(TournamentError):
        guest_pin_check(tournament.pk, gus.pk, gus_pin, "192.0.2.80")
    assert guest_pins.guest_pins_locked(tournament) == {gus.pk: 15}
    player, new_pin = guest_pins.guest_pin_reissue(tournament, gus.pk)
    assert player == gus
    assert guest_pins.guest_pins_locked(tournament) == {}
    if new_pin != gus_pin:
        with pytest.raises(TournamentError):
            guest_pin_check(tournament.pk, gus.pk, gus_pin, "192.0.2.80")
    assert guest_pin_check(tournament.pk, gus.pk, new_pin, "192.0.2.80").player == gus


def test_only_a_guest_of_the_tournament_gets_a_new_pin(
    tournament: Tournament, night: dict[str, Entry]
) -> None:
    for player_id in (night["pat"].player.pk, Player.objects.create(name="Olga").pk, 999_999):
        with pytest.raises(TournamentError) as refusal:
            guest_pins.guest_pin_reissue(tournament, player_id)
        assert refusal.value.message == "Pick a guest of this tournament."
    assert not GuestPin.objects.exists()


def pins_url(tournament: Tournament) -> str:
    return reverse("tournaments:console_guest_pin", args=[tournament.pk])


def test_the_console_shows_a_locked_guest_and_gives_a_new_pin(
    director_client: Client, tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    lock_out(tournament, gus, gus_pin)
    console = director_client.get(reverse("tournaments:console", args=[tournament.pk]))
    section = console.content.decode().split('id="console-guest-pins"', 1)[1]
    section = section.split("</section>", 1)[0]
    assert "Gus" in section
    assert "locked out" in section
    response = director_client.post(
        pins_url(tournament), {"player": gus.pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    page = response.content.decode()
    new_pin = page.split('class="guest-pin-new">', 1)[1][:6]
    assert "Gus" in page and "locked out" not in page
    assert guest_pin_check(tournament.pk, gus.pk, new_pin, "192.0.2.80").player == gus


def test_the_console_refuses_a_new_pin_for_a_name_not_among_the_guests(
    director_client: Client, tournament: Tournament, night: dict[str, Entry]
) -> None:
    for value in (str(night["pat"].player.pk), "abc", ""):
        response = director_client.post(pins_url(tournament), {"player": value})
        assert response.status_code == 200
        assert "Pick a guest of this tournament." in response.content.decode()
    assert not GuestPin.objects.exists()


def test_only_a_director_gives_a_new_pin(
    player_client: Client, tournament: Tournament, gus: Player, gus_pin: str
) -> None:
    assert player_client.post(pins_url(tournament), {"player": gus.pk}).status_code == 403
    assert guest_pin_check(tournament.pk, gus.pk, gus_pin, ADDRESS).player == gus
