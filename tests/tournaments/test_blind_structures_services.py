"""The structure workflows (`tournaments.services.blind_structures`): each edit keeps the whole
structure valid, and bad input gets its message and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from series.models import Season
from tables.engine.config import AnteKind
from tests.tournaments.factories import HOME_CHIPS, make_tournament
from tournaments.blind_structures import BlindStructureError, Row
from tournaments.models import BlindLevel, BlindStructure, TournamentState
from tournaments.services import blind_structures as services

pytestmark = pytest.mark.django_db


def snapshot(blind_structure: BlindStructure) -> list[tuple[object, ...]]:
    """Everything about the rows, ids and positions included, to show nothing changed."""
    return list(
        BlindLevel.objects.filter(blind_structure=blind_structure)
        .order_by("position")
        .values_list(
            "pk",
            "position",
            "kind",
            "minutes",
            "small_blind",
            "big_blind",
            "ante_kind",
            "ante",
            "small_bet",
            "big_bet",
            "colour_up",
        )
    )


def blinds(blind_structure: BlindStructure) -> list[str]:
    return [
        "break" if row.is_break else f"{row.small_blind}/{row.big_blind}"
        for row in services.blind_structure_rows(blind_structure)
    ]


# Creating -----------------------------------------------------------------------------------


def test_a_blind_structure_is_created_with_its_rows_numbered_in_order(
    home_blind_structure: BlindStructure, director: User
) -> None:
    assert home_blind_structure.created_by == director
    assert home_blind_structure.chip_set == [25, 100, 500, 1000]
    positions = list(home_blind_structure.levels.values_list("position", flat=True))
    assert positions == [1, 2, 3, 4, 5, 6]
    assert blinds(home_blind_structure) == [
        "25/50",
        "50/100",
        "100/200",
        "break",
        "200/400",
        "300/600",
    ]


def test_a_blank_blind_structure_has_no_rows(director: User) -> None:
    blind_structure = services.blind_structure_create(by=director, name="Empty", chip_set=[25, 100])
    assert blind_structure.levels.count() == 0


def test_a_blind_structure_with_a_bad_row_is_not_created(director: User) -> None:
    with pytest.raises(BlindStructureError, match="Level 2: it lasts 0 minutes"):
        services.blind_structure_create(
            by=director, name="Bad", rows=[Row.level(25, 50), Row.level(50, 100, minutes=0)]
        )
    assert not BlindStructure.objects.filter(name="Bad").exists()


def test_a_blind_structure_needs_a_name(director: User) -> None:
    with pytest.raises(BlindStructureError, match="Give the blind structure a name."):
        services.blind_structure_create(by=director, name="   ")


def test_pot_limit_rows_drop_the_bets_they_never_use(director: User) -> None:
    blind_structure = services.blind_structure_create(
        by=director, name="PLO", rows=[Row.level(25, 50, small_bet=50, big_bet=100)]
    )
    level = blind_structure.levels.get()
    assert (level.small_bet, level.big_bet) == (None, None)


# Copying ------------------------------------------------------------------------------------


def test_a_copy_has_the_same_rows_and_belongs_to_the_copier(
    home_blind_structure: BlindStructure, player: User
) -> None:
    copy = services.blind_structure_copy(home_blind_structure.pk, by=player)
    assert copy.pk != home_blind_structure.pk
    assert copy.name == "Copy of Tuesday PLO8"
    assert copy.created_by == player and not copy.is_template
    assert blinds(copy) == blinds(home_blind_structure)
    assert copy.chip_set == home_blind_structure.chip_set
    assert set(copy.levels.values_list("pk", flat=True)).isdisjoint(
        home_blind_structure.levels.values_list("pk", flat=True)
    )


def test_a_template_is_copied_under_a_new_name(
    builtin_templates: list[BlindStructure], director: User
) -> None:
    template = next(t for t in builtin_templates if t.name == "Home series PLO8")
    copy = services.blind_structure_copy(template.pk, by=director, name="Our PLO8")
    assert copy.name == "Our PLO8" and not copy.is_template
    assert blinds(copy)[0] == "25/50"


def test_the_blind_structure_used_last_time_is_the_directors_latest_tournament(
    director: User,
    home_blind_structure: BlindStructure,
    limit_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    assert services.blind_structure_last_used(director) is None
    make_tournament(long_season, limit_blind_structure, by=director, starts_in=-timedelta(days=14))
    make_tournament(long_season, home_blind_structure, by=director, starts_in=-timedelta(days=7))
    # next week's tournament is set up but not played yet: "last time" is last week's
    make_tournament(long_season, limit_blind_structure, by=director, starts_in=timedelta(days=7))
    assert services.blind_structure_last_used(director) == home_blind_structure


def test_a_cancelled_tournament_is_not_the_last_time(
    director: User,
    home_blind_structure: BlindStructure,
    limit_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    make_tournament(long_season, home_blind_structure, by=director, starts_in=-timedelta(days=14))
    make_tournament(
        long_season,
        limit_blind_structure,
        by=director,
        starts_in=-timedelta(days=7),
        state=TournamentState.CANCELLED,
    )
    assert services.blind_structure_last_used(director) == home_blind_structure


def test_without_tournaments_of_their_own_a_director_gets_the_series_last_one(
    director: User, player: User, home_blind_structure: BlindStructure, long_season: Season
) -> None:
    make_tournament(long_season, home_blind_structure, by=director, starts_in=-timedelta(days=7))
    assert services.blind_structure_last_used(player) == home_blind_structure


# Generating ---------------------------------------------------------------------------------


def test_a_generated_blind_structure_is_saved_for_editing(director: User) -> None:
    blind_structure = services.blind_structure_generate(
        by=director,
        name="Proposed",
        starting_stack=10_000,
        players=10,
        hours=4,
        chip_set=[25, 100, 500, 1000, 5000],
        ante_kind=AnteKind.EACH,
    )
    assert blind_structure.created_by == director
    assert "Proposed for 10 players with 10000 chips each and 4 h of play" in (
        blind_structure.description
    )
    rows = services.blind_structure_rows(blind_structure)
    assert rows[0].big_blind == 100 and any(row.ante for row in rows)


def test_bad_generator_settings_create_nothing(director: User) -> None:
    before = BlindStructure.objects.count()
    with pytest.raises(BlindStructureError, match="cannot be made with these chips"):
        services.blind_structure_generate(
            by=director, name="X", starting_stack=10_010, players=10, hours=4, chip_set=[25]
        )
    assert BlindStructure.objects.count() == before


# Editing rows -------------------------------------------------------------------------------


def test_adding_a_level_proposes_the_next_blinds(home_blind_structure: BlindStructure) -> None:
    level = services.blind_structure_level_add(home_blind_structure.pk)
    # 300/600 grown 1.5x is 900: the nearest the 100s make (in steps of 200) is 1,000.
    assert (level.position, level.small_blind, level.big_blind) == (7, 500, 1000)
    assert blinds(home_blind_structure)[-1] == "500/1000"


def test_adding_a_break_after_a_row(home_blind_structure: BlindStructure) -> None:
    second = home_blind_structure.levels.get(position=2)
    added = services.blind_structure_level_add(
        home_blind_structure.pk, kind="break", after=second.pk
    )
    assert (added.position, added.kind, added.minutes) == (3, "break", 10)
    assert blinds(home_blind_structure) == [
        "25/50",
        "50/100",
        "break",
        "100/200",
        "break",
        "200/400",
        "300/600",
    ]


def test_adding_a_level_with_given_values(home_blind_structure: BlindStructure) -> None:
    level = services.blind_structure_level_add(
        home_blind_structure.pk, values={"small_blind": 500, "big_blind": 1000, "minutes": 25}
    )
    assert (level.small_blind, level.big_blind, level.minutes) == (500, 1000, 25)


def test_adding_a_level_the_chips_cannot_make_changes_nothing(
    home_blind_structure: BlindStructure,
) -> None:
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError) as caught:
        services.blind_structure_level_add(
            home_blind_structure.pk, values={"small_blind": 150, "big_blind": 300, "minutes": 20}
        )
    assert caught.value.messages == [
        "Level 6: the small blind 150 cannot be made with the chips in play: it is not a "
        "multiple of 100, the smallest chip left."
    ]
    assert snapshot(home_blind_structure) == before


def test_removing_a_row_renumbers_the_rest(home_blind_structure: BlindStructure) -> None:
    second = home_blind_structure.levels.get(position=2)
    services.blind_structure_level_remove(home_blind_structure.pk, second.pk)
    assert blinds(home_blind_structure) == ["25/50", "100/200", "break", "200/400", "300/600"]
    assert list(home_blind_structure.levels.values_list("position", flat=True)) == [1, 2, 3, 4, 5]


def test_removing_the_colour_up_break_is_fine_when_the_blinds_still_can_be_made(
    home_blind_structure: BlindStructure,
) -> None:
    pause = home_blind_structure.levels.get(position=4)
    services.blind_structure_level_remove(home_blind_structure.pk, pause.pk)
    assert "break" not in blinds(home_blind_structure)


def test_moving_rows_up_and_down_keeps_their_ids(home_blind_structure: BlindStructure) -> None:
    pause = home_blind_structure.levels.get(position=4)
    services.blind_structure_level_move(home_blind_structure.pk, pause.pk, offset=1)
    assert blinds(home_blind_structure) == [
        "25/50",
        "50/100",
        "100/200",
        "200/400",
        "break",
        "300/600",
    ]
    pause.refresh_from_db()
    assert pause.position == 5
    first = home_blind_structure.levels.get(position=1)
    services.blind_structure_level_move(home_blind_structure.pk, first.pk, offset=1)
    assert blinds(home_blind_structure)[:2] == ["50/100", "25/50"]


def test_a_move_that_breaks_the_chip_rule_changes_nothing(
    home_blind_structure: BlindStructure,
) -> None:
    # The break that colours up the 25s may come before 100/200, not before 50/100.
    pause = home_blind_structure.levels.get(position=4)
    services.blind_structure_level_move(home_blind_structure.pk, pause.pk, offset=-1)
    assert blinds(home_blind_structure)[:4] == ["25/50", "50/100", "break", "100/200"]
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError) as caught:
        services.blind_structure_level_move(home_blind_structure.pk, pause.pk, offset=-1)
    assert caught.value.messages == [
        "Level 2: the small blind 50 cannot be made with the chips in play: it is not a "
        "multiple of 100, the smallest chip left."
    ]
    assert snapshot(home_blind_structure) == before


def test_the_first_row_cannot_move_up(home_blind_structure: BlindStructure) -> None:
    first = home_blind_structure.levels.get(position=1)
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError, match="Level 1 is already the first row."):
        services.blind_structure_level_move(home_blind_structure.pk, first.pk, offset=-1)
    last = home_blind_structure.levels.get(position=6)
    with pytest.raises(BlindStructureError, match="Level 5 is already the last row."):
        services.blind_structure_level_move(home_blind_structure.pk, last.pk, offset=1)
    assert snapshot(home_blind_structure) == before


def test_updating_a_level(home_blind_structure: BlindStructure) -> None:
    second = home_blind_structure.levels.get(position=2)
    level = services.blind_structure_level_update(
        home_blind_structure.pk,
        second.pk,
        small_blind=50,
        big_blind=100,
        ante_kind=AnteKind.EACH,
        ante=25,
        minutes=25,
    )
    assert (level.ante_kind, level.ante, level.minutes) == ("each", 25, 25)


@pytest.mark.parametrize(
    ("position", "changes", "message"),
    [
        (2, {"minutes": 0}, "Level 2: it lasts 0 minutes; give it at least one minute."),
        (2, {"big_blind": 25}, "Level 2: the big blind 25 is below the small blind 50."),
        (
            2,
            {"ante_kind": "each", "ante": 75},
            "Level 2: the ante 75 is above the small blind 50.",
        ),
        (
            5,
            {"small_blind": 250, "big_blind": 500},
            "Level 4: the small blind 250 cannot be made with the chips in play: it is not a "
            "multiple of 100, the smallest chip left.",
        ),
        (
            4,
            {"colour_up": [25, 100]},
            "Level 5: the small blind 300 cannot be made with the chips in play: it is not a "
            "multiple of 500, the smallest chip left.",
        ),
        (4, {"small_blind": 25}, "Break after level 3: a break has no blinds, ante or bets."),
    ],
)
def test_a_bad_update_gets_its_message_and_changes_nothing(
    home_blind_structure: BlindStructure, position: int, changes: dict[str, object], message: str
) -> None:
    row = home_blind_structure.levels.get(position=position)
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError) as caught:
        services.blind_structure_level_update(home_blind_structure.pk, row.pk, **changes)
    assert message in caught.value.messages
    assert snapshot(home_blind_structure) == before


def test_a_limit_level_without_bets_is_refused(limit_blind_structure: BlindStructure) -> None:
    row = limit_blind_structure.levels.get(position=2)
    before = snapshot(limit_blind_structure)
    with pytest.raises(BlindStructureError, match="Level 2: a limit level needs the small bet"):
        services.blind_structure_level_update(limit_blind_structure.pk, row.pk, big_bet=None)
    assert snapshot(limit_blind_structure) == before


def test_a_row_of_another_blind_structure_is_not_found(
    home_blind_structure: BlindStructure, limit_blind_structure: BlindStructure
) -> None:
    other = limit_blind_structure.levels.get(position=1)
    with pytest.raises(BlindStructureError, match="no longer in the blind structure"):
        services.blind_structure_level_remove(home_blind_structure.pk, other.pk)
    assert limit_blind_structure.levels.filter(pk=other.pk).exists()


def test_saving_all_rows_at_once(home_blind_structure: BlindStructure) -> None:
    rows = services.blind_structure_rows(home_blind_structure)
    kept = rows[0]
    services.blind_structure_save_rows(
        home_blind_structure.pk,
        [kept, {"kind": "level", "minutes": 30, "small_blind": 50, "big_blind": 100}],
    )
    assert blinds(home_blind_structure) == ["25/50", "50/100"]
    assert home_blind_structure.levels.get(position=1).pk == kept.id


def test_saving_bad_rows_changes_nothing(home_blind_structure: BlindStructure) -> None:
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError, match="Level 1: the big blind 10 is below"):
        services.blind_structure_save_rows(home_blind_structure.pk, [Row.level(25, 10)])
    assert snapshot(home_blind_structure) == before


# Settings -----------------------------------------------------------------------------------


def test_switching_to_limit_gives_each_level_its_bets(home_blind_structure: BlindStructure) -> None:
    services.blind_structure_update(
        home_blind_structure.pk, name="Limit now", chip_set=HOME_CHIPS, for_limit=True
    )
    rows = [row for row in services.blind_structure_rows(home_blind_structure) if not row.is_break]
    assert all(row.small_bet == row.big_blind and row.big_bet == 2 * row.big_blind for row in rows)
    services.blind_structure_update(
        home_blind_structure.pk, name="Pot-limit again", chip_set=HOME_CHIPS, for_limit=False
    )
    assert all(row.small_bet is None for row in services.blind_structure_rows(home_blind_structure))


def test_taking_out_a_chip_the_blinds_need_is_refused(home_blind_structure: BlindStructure) -> None:
    with pytest.raises(BlindStructureError, match="Level 1: the small blind 25 cannot be made"):
        services.blind_structure_update(
            home_blind_structure.pk, name="No 25s", chip_set=[100, 500, 1000]
        )
    home_blind_structure.refresh_from_db()
    assert home_blind_structure.name == "Tuesday PLO8"
    assert home_blind_structure.chip_set == [25, 100, 500, 1000]


# Locks --------------------------------------------------------------------------------------


def test_a_template_is_not_edited_but_copied(builtin_templates: list[BlindStructure]) -> None:
    template = builtin_templates[0]
    row = template.levels.get(position=1)
    before = snapshot(template)
    with pytest.raises(BlindStructureError, match="is a built-in template: copy it"):
        services.blind_structure_level_update(template.pk, row.pk, minutes=30)
    with pytest.raises(BlindStructureError, match="is a built-in template"):
        services.blind_structure_delete(template.pk)
    assert snapshot(template) == before


def test_the_blind_structure_of_a_started_tournament_is_not_edited(
    director: User, home_blind_structure: BlindStructure, long_season: Season
) -> None:
    make_tournament(
        long_season,
        home_blind_structure,
        by=director,
        starts_in=-timedelta(hours=1),
        name="Event 2",
        state=TournamentState.RUNNING,
    )
    row = home_blind_structure.levels.get(position=1)
    before = snapshot(home_blind_structure)
    with pytest.raises(BlindStructureError, match="was used by Event 2, which has started"):
        services.blind_structure_level_remove(home_blind_structure.pk, row.pk)
    assert snapshot(home_blind_structure) == before


def test_a_registering_tournaments_blind_structure_can_still_be_edited(
    director: User, home_blind_structure: BlindStructure, long_season: Season
) -> None:
    make_tournament(long_season, home_blind_structure, by=director, starts_in=timedelta(days=3))
    services.blind_structure_level_add(home_blind_structure.pk)
    assert home_blind_structure.levels.count() == 7


def test_a_blind_structure_in_use_is_not_deleted(
    director: User, home_blind_structure: BlindStructure, long_season: Season
) -> None:
    make_tournament(long_season, home_blind_structure, by=director, starts_in=timedelta(days=3))
    with pytest.raises(BlindStructureError, match="is used by a tournament"):
        services.blind_structure_delete(home_blind_structure.pk)
    assert BlindStructure.objects.filter(pk=home_blind_structure.pk).exists()


def test_an_unused_blind_structure_is_deleted_with_its_rows(
    home_blind_structure: BlindStructure,
) -> None:
    services.blind_structure_delete(home_blind_structure.pk)
    assert not BlindLevel.objects.filter(blind_structure_id=home_blind_structure.pk).exists()


# Preview defaults ---------------------------------------------------------------------------


def test_the_preview_starts_at_the_next_event_that_plays_the_blind_structure(
    director: User,
    home_blind_structure: BlindStructure,
    limit_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    make_tournament(
        long_season, limit_blind_structure, by=director, starts_in=timedelta(days=1), name="A"
    )
    ours = make_tournament(
        long_season, home_blind_structure, by=director, starts_in=timedelta(days=8), name="B"
    )
    ours.capacity = 18
    ours.save()
    settings = services.blind_structure_preview_settings(home_blind_structure)
    assert settings.event == ours.event
    assert settings.start == ours.event.starts_at
    assert (settings.players, settings.starting_stack) == (18, 10_000)


def test_the_preview_falls_back_to_the_next_event_then_the_next_half_hour(
    director: User,
    home_blind_structure: BlindStructure,
    limit_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    settings = services.blind_structure_preview_settings(home_blind_structure)
    assert settings.event is None
    assert settings.start.minute in (0, 30) and settings.players == 10
    other = make_tournament(
        long_season, limit_blind_structure, by=director, starts_in=timedelta(days=2)
    )
    assert services.blind_structure_preview_settings(home_blind_structure).event == other.event
