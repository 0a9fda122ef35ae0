"""Accounts, the Directors role, the demo series."""

import secrets
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.contrib.auth.models import AbstractBaseUser, Group, Permission, User
from django.db import transaction
from django.utils import timezone

from core.permissions import DIRECTOR_KNOWN, DIRECTORS_GROUP
from series.models import Event, Season
from series.services.rsvp import rsvp_demo_load
from tables.engine.config import Game, Structure

# Directors manage the calendar in the admin: the series' own models, and those the apps
# above the series add at start-up (their ``AppConfig.ready``), so the series names none of
# theirs (the tournaments add their blind structures, tournaments, entries and tables).
_director_models: list[str] = ["series.season", "series.event"]


def director_models_register(*labels: str) -> None:
    """Let the Directors group manage these models in the admin ("app_label.modelname");
    registering one again (``ready`` runs twice in some test set-ups) changes nothing."""
    for label in labels:
        if label not in _director_models:
            _director_models.append(label)


def director_models() -> tuple[str, ...]:
    """The models the Directors group manages, the series' own first."""
    return tuple(_director_models)


def directors_group_ensure(using: str = "default") -> Group:
    """Create the Directors group with its admin permissions; safe to call repeatedly."""
    group, _ = Group.objects.using(using).get_or_create(name=DIRECTORS_GROUP)
    for label in director_models():
        app_label, model = label.split(".")
        permissions = Permission.objects.using(using).filter(
            content_type__app_label=app_label, content_type__model=model
        )
        group.permissions.add(*permissions)
    return group


def director_grant(user: User) -> User:
    """Make ``user`` a director: the Directors group, and staff status for the admin."""
    user.groups.add(directors_group_ensure())
    setattr(user, DIRECTOR_KNOWN, True)
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return user


def player_sign_up(username: str, password: str, email: str = "") -> AbstractBaseUser:
    return User.objects.create_user(username=username, password=password, email=email)


DEMO_PLAYERS = ("ann", "ben", "cal", "dee", "eve", "fay")


@dataclass(frozen=True)
class DemoAccounts:
    """Each demo account's own password: nobody can log in as another player."""

    passwords: dict[str, str]

    @property
    def director_password(self) -> str:
        return self.passwords["director"]


def demo_is_needed() -> bool:
    return not User.objects.exists() and not Season.objects.exists()


@transaction.atomic
def demo_load(now: datetime | None = None) -> DemoAccounts | None:
    """Fill an empty database with a director, six players and a season of events.

    Returns the generated passwords (shown once), or None when the database already has
    users or seasons, so running it again never touches real data.
    """
    if not demo_is_needed():
        return None
    now = now or timezone.now()
    accounts = DemoAccounts(
        {
            "director": secrets.token_urlsafe(12),
            **{name: secrets.token_urlsafe(9) for name in DEMO_PLAYERS},
        }
    )
    director = User.objects.create_user(
        "director", email="director@example.com", password=accounts.director_password
    )
    director_grant(director)
    players = {
        name: User.objects.create_user(name, password=accounts.passwords[name])
        for name in DEMO_PLAYERS
    }

    today = timezone.localdate(now)
    season = Season.objects.create(
        name=f"{today.year} Omaha Series",
        starts_on=today,
        ends_on=today + timedelta(weeks=26),
        description="Monthly Omaha tournaments among friends. Points for every finish.",
    )
    # Fridays at 19:30 local time, four weeks apart, starting with the next Friday.
    first_friday = today + timedelta(days=(4 - today.weekday()) % 7 or 7)
    schedule = [
        ("Season opener", Game.OMAHA_HI_LO, Structure.POT_LIMIT, 20, 5, "Ann's kitchen"),
        ("Pot-Limit Omaha night", Game.OMAHA, Structure.POT_LIMIT, 20, 5, "Ben's garage"),
        ("Limit Omaha/8", Game.OMAHA_HI_LO, Structure.LIMIT, 15, 5, "The back room"),
        ("Big-stack Omaha", Game.OMAHA, Structure.NO_LIMIT, 30, 5, "Cal's place"),
        ("Hi/Lo classic", Game.OMAHA_HI_LO, Structure.POT_LIMIT, 20, 5, "Dee's flat"),
        ("Season finale", Game.OMAHA_HI_LO, Structure.POT_LIMIT, 50, 10, "Ann's kitchen"),
    ]
    events = []
    for week, (name, game, structure, buy_in, fee, venue) in enumerate(schedule):
        day = first_friday + timedelta(weeks=4 * week)
        events.append(
            Event.objects.create(
                season=season,
                name=name,
                starts_at=timezone.make_aware(datetime.combine(day, time(19, 30))),
                venue=venue,
                game=game,
                structure=structure,
                buy_in=buy_in,
                fee=fee,
                starting_stack=10000,
                # Published by the time the demo's answers are given, and by now.
                published_at=min(now, timezone.now()),
            )
        )
    rsvp_demo_load(events[0], players, now)
    return accounts
