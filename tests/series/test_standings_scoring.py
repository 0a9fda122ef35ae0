"""Scoring a season from its results, without a database: formulas, counted events, best N,
qualification, tie-breaks, movement."""

from decimal import Decimal

import pytest

from series import scoring
from series.formula import Formula, FormulaError
from series.scoring import EventIn, ResultIn, Rules, season_score

D = Decimal
_ids = iter(range(1, 100_000))


def event(event_id: int, places: dict[int, int], *, buy_in: int = 20, **kwargs: object) -> EventIn:
    """An event from {player id: place}; prizes for the top place only."""
    results = [
        ResultIn(next(_ids), player, place, prize=100 if place == 1 else 0)
        for player, place in places.items()
    ]
    return EventIn(event_id, buy_in, results, **kwargs)  # type: ignore[arg-type]


def by_player(score: scoring.SeasonScore) -> dict[int, scoring.Line]:
    return {line.player_id: line for line in score.lines}


def test_square_root_formula_worked_examples() -> None:
    # By hand: log10(20 + 0.25) = 1.306425, so 1 + log10(b + 0.25) = 2.306425 for b = 20.
    # n = 16, k = 1: 10·4/1·2.306425 = 92.257 -> 92.26
    # n = 16, k = 2: 10·4/1.414214·2.306425 = 65.2357 -> 65.24
    # n = 16, k = 4: 10·4/2·2.306425 = 46.1285 -> 46.13
    # a freeroll (b = 0), n = 16, k = 1: 40·(1 + log10(0.25)) = 40·0.397940 = 15.9176 -> 15.92
    assert scoring.square_root_points(16, 1, 20) == D("92.26")
    assert scoring.square_root_points(16, 2, 20) == D("65.24")
    assert scoring.square_root_points(16, 4, 20) == D("46.13")
    assert scoring.square_root_points(16, 1, 0) == D("15.92")


def test_a_freeroll_scores_with_no_buy_in_whatever_the_event_says() -> None:
    freeroll = event(1, {p: p for p in range(1, 17)}, buy_in=20, points_only=True)
    score = season_score(Rules(), [freeroll])
    assert by_player(score)[1].points == D("15.92")


def test_points_by_place_table() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5)))
    score = season_score(rules, [event(1, {1: 1, 2: 2, 3: 3, 4: 4})])
    assert [line.points for line in score.lines] == [D(10), D(7), D(5), D(0)]


def test_shared_place_scores_the_same() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5), D(3)))
    score = season_score(rules, [event(1, {1: 1, 2: 2, 3: 3, 4: 3})])
    lines = by_player(score)
    assert lines[3].points == lines[4].points == D(5)
    assert lines[3].rank == lines[4].rank == 3


def test_custom_formula() -> None:
    rules = Rules(formula=scoring.CUSTOM, custom=Formula.parse("n - k + 1 + knockouts"))
    score = season_score(rules, [event(1, {1: 1, 2: 2, 3: 3, 4: 4})])
    assert [line.points for line in score.lines] == [D(4), D(3), D(2), D(1)]


def test_custom_formula_dividing_by_zero_on_a_result_is_reported() -> None:
    rules = Rules(formula=scoring.CUSTOM, custom=Formula.parse("100 / (n - k)"))
    with pytest.raises(FormulaError, match="division by zero at column 5"):
        season_score(rules, [event(1, {1: 1, 2: 2, 3: 3, 4: 4})])


def test_small_fields_and_left_out_events_score_nothing_and_do_not_count() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5), D(3)), min_field=4)
    small = event(1, {1: 1, 2: 2, 3: 3})  # three players: under the smallest field
    left_out = event(2, {1: 1, 2: 2, 3: 3, 4: 4}, counts=False)
    real = event(3, {1: 4, 2: 3, 3: 2, 4: 1})
    score = season_score(rules, [small, left_out, real])
    lines = by_player(score)
    assert score.counted_events == [3]
    assert lines[4].points == D(10) and lines[4].rank == 1
    assert lines[1].points == D(3) and lines[1].events == 1 and lines[1].wins == 0
    assert all(score.points[r.result_id] == 0 for r in [*small.results, *left_out.results])


def test_best_n_of_m() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5), D(3)), best_of=2)
    events = [
        event(1, {1: 1, 2: 2, 3: 3, 4: 4}),
        event(2, {1: 4, 2: 1, 3: 2, 4: 3}),
        event(3, {1: 2, 2: 4, 3: 1, 4: 3}),
    ]
    lines = by_player(season_score(rules, events))
    # Player 1: 10, 3, 7 -> best two 17; player 2: 7, 10, 3 -> 17; player 3: 5, 7, 10 -> 17;
    assert lines[1].points == lines[2].points == lines[3].points == D(17)
    assert lines[4].points == D(10)  # 3, 5, 5: best two 10
    assert lines[1].events == 3  # every event played is counted, only the best N add up


def test_unqualified_players_rank_after_the_qualified() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5), D(3)), min_events=2)
    events = [
        event(1, {1: 1, 2: 2, 3: 3, 4: 4}),
        event(2, {5: 1, 2: 2, 3: 3, 4: 4}),
    ]
    lines = by_player(season_score(rules, events))
    # Players 1 and 5 won once each but played once: ranked after the three who played twice.
    assert [lines[p].rank for p in (2, 3, 4)] == [1, 2, 3]
    assert lines[1].rank == lines[5].rank == 4
    assert not lines[1].qualified and lines[2].qualified


def test_tie_breaks_wins_then_best_finish_then_events_then_shared_rank() -> None:
    rules = Rules(formula=scoring.CUSTOM, custom=Formula.parse("if k = 1 then 10 else 5"))
    events = [
        event(1, {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 6}),
        event(2, {2: 3, 3: 3, 4: 3, 5: 2, 6: 1}),
    ]
    # Points: 1 -> 10 (one win), 2 -> 10, 3 -> 10, 4 -> 10, 5 -> 10, 6 -> 15.
    # Among the 10s: 1 has a win; 2, 4 and 5 have a best finish of 2, 3 of 3;
    # 2, 4 and 5 all played twice: they share the rank.
    lines = by_player(season_score(rules, events))
    assert lines[6].rank == 1
    assert lines[1].rank == 2
    assert lines[2].rank == lines[4].rank == lines[5].rank == 3
    assert lines[3].rank == 6


def test_more_events_breaks_a_tie_after_wins_and_best_finish() -> None:
    rules = Rules(formula=scoring.CUSTOM, custom=Formula.parse("if k = 1 then 10 else 0"))
    events = [event(1, {1: 2, 2: 1, 3: 3}), event(2, {1: 2, 3: 1})]
    lines = by_player(season_score(rules, events))
    # 2 and 3 each won once (10 points, best finish 1); 3 played twice.
    assert lines[3].rank == 1 and lines[2].rank == 2


def test_history_and_movement_since_the_last_event() -> None:
    rules = Rules(formula=scoring.PLACES, place_points=(D(10), D(7), D(5), D(3)))
    events = [
        event(1, {1: 1, 2: 2, 3: 3, 4: 4}),
        event(2, {1: 4, 2: 3, 3: 1, 4: 2, 5: 5}),
    ]
    score = season_score(rules, events)
    lines = by_player(score)
    # After event 1: 1, 2, 3, 4. After event 2: 3 (15), 1 (13), 2 (12), 4 (10), 5 (0).
    assert [lines[p].rank for p in (3, 1, 2, 4, 5)] == [1, 2, 3, 4, 5]
    assert lines[3].movement == 2 and lines[1].movement == -1 and lines[2].movement == -1
    assert lines[4].movement == 0 and lines[5].movement is None
    after_first = [(h.player_id, h.points, h.rank) for h in score.history if h.event_id == 1]
    assert after_first == [(1, D(10), 1), (2, D(7), 2), (3, D(5), 3), (4, D(3), 4)]
    assert len(score.history) == 9  # a point for each player after each event they played


def test_the_same_input_gives_the_same_table() -> None:
    events = [event(e, {p: (p + e) % 9 + 1 for p in range(1, 10)}) for e in range(1, 6)]
    assert season_score(Rules(best_of=3), events) == season_score(Rules(best_of=3), events)
