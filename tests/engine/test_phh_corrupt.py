"""Corrupted hands are refused one by one, the good hands beside them still replay.

Each mutation below breaks one valid hand in one way; the `.phhs` file mixes them with good
hands from the corpus and goes through the command line exactly as other tools call it:
`python -m tables.engine replay FILE`, one JSON object per hand, exit code 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tables.engine.phh import dumps_fields, split_phhs

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]

Fields = dict[str, Any]

DEAL = ["d dh p1 AhKhQhJh", "d dh p2 2c3c4c5c"]
CHECK_DOWN = [
    *DEAL,
    "p2 cc",
    "p1 cc",
    "d db 7d8d9d",
    "p1 cc",
    "p2 cc",
    "d db Td",
    "p1 cc",
    "p2 cc",
    "d db 2h",
    "p1 cc",
    "p2 cc",
    "p1 sm AhKhQhJh",
    "p2 sm 2c3c4c5c",
]


def hand(variant: str = "PO", actions: list[str] | None = None, **changes: Any) -> Fields:
    fields: Fields = {
        "variant": variant,
        "antes": [0, 0],
        "blinds_or_straddles": [1, 2],
    }
    if variant.startswith("F"):
        fields["small_bet"], fields["big_bet"] = 2, 4
    else:
        fields["min_bet"] = 2
    fields["starting_stacks"] = [100, 100]
    fields["actions"] = list(CHECK_DOWN if actions is None else actions)
    fields.update(changes)
    return fields


def without(name: str) -> Fields:
    fields = hand()
    del fields[name]
    return fields


def replace_line(old: str, new: str) -> Fields:
    return hand(actions=[new if line == old else line for line in CHECK_DOWN])


CORRUPTED: dict[str, Fields | str] = {
    "card-dealt-twice": replace_line("d db Td", "d db Ah"),
    "card-dealt-twice-in-the-hole": replace_line("d dh p2 2c3c4c5c", "d dh p2 2c3c4cAh"),
    "card-not-in-deck-Zz": replace_line("d db Td", "d db Zz"),
    "card-not-in-deck-1h": replace_line("d dh p1 AhKhQhJh", "d dh p1 1hKhQhJh"),
    "unknown-player-p9": replace_line("p2 cc", "p9 cc"),
    "dealt-to-unknown-player": hand(actions=[*DEAL, "d dh p3 6s7s8s9s", "p2 f"]),
    "bet-out-of-turn": hand(actions=[*DEAL, "p1 cc"]),
    "raise-below-minimum": hand("NO", [*DEAL, "p2 cbr 3", "p1 f"]),
    "raise-above-pot-limit-max": hand("PO", [*DEAL, "p2 cbr 7", "p1 f"]),
    "bet-more-than-the-stack": hand("NO", [*DEAL, "p2 cbr 101", "p1 f"]),
    "fifth-limit-bet-preflop": hand(
        "FO", [*DEAL, "p2 cbr 4", "p1 cbr 6", "p2 cbr 8", "p1 cbr 10", "p2 f"]
    ),
    "fifth-limit-bet-on-the-flop": hand(
        "FO/8",
        [
            *DEAL,
            "p2 cc",
            "p1 cc",
            "d db 7d8d9d",
            "p1 cbr 2",
            "p2 cbr 4",
            "p1 cbr 6",
            "p2 cbr 8",
            "p1 cbr 10",
            "p2 f",
        ],
    ),
    "limit-raise-of-the-wrong-size": hand("FO", [*DEAL, "p2 cbr 5", "p1 f"]),
    "action-after-the-hand-ended": hand(actions=[*CHECK_DOWN, "p1 cc"]),
    "fold-after-everyone-folded": hand(actions=[*DEAL, "p2 f", "p1 f"]),
    "truncated-before-showdown": hand(actions=CHECK_DOWN[:-2]),
    "truncated-one-sm-missing": hand(actions=CHECK_DOWN[:-1]),
    "truncated-before-the-river": hand(actions=CHECK_DOWN[:-5]),
    "truncated-mid-round": hand(actions=CHECK_DOWN[:5]),
    "no-actions": hand(actions=[]),
    "all-in-runout-missing": hand(
        "NO", actions=[*DEAL, "p2 cbr 6", "p1 cbr 100", "p2 cc", "p1 sm AhKhQhJh", "p2 sm 2c3c4c5c"]
    ),
    "all-in-hands-not-shown": hand(
        "NO",
        actions=[*DEAL, "p2 cbr 6", "p1 cbr 100", "p2 cc", "d db 7d8d9d", "d db Td", "d db 2h"],
    ),
    "all-in-hand-mucked": hand(
        "NO",
        actions=[
            *DEAL,
            "p2 cbr 6",
            "p1 cbr 100",
            "p2 cc",
            "p1 sm AhKhQhJh",
            "p2 sm",
            "d db 7d8d9d",
            "d db Td",
            "d db 2h",
        ],
    ),
    "shown-cards-differ": replace_line("p2 sm 2c3c4c5c", "p2 sm 2c3c4c6c"),
    "shown-cards-partly-hidden": replace_line("p2 sm 2c3c4c5c", "p2 sm 2c3c4c??"),
    "folded-player-shows": hand(actions=[*CHECK_DOWN[:-4], "p1 cbr 2", "p2 f", "p2 sm 2c3c4c5c"]),
    "board-dealt-before-the-round-ends": hand(actions=[*DEAL, "p2 cc", "d db 7d8d9d"]),
    "flop-of-two-cards": replace_line("d db 7d8d9d", "d db 7d8d"),
    "fourth-board-card": hand(actions=[*CHECK_DOWN[:-2], "d db 3h", *CHECK_DOWN[-2:]]),
    "hole-cards-after-the-betting": hand(actions=[DEAL[0], "p2 cc", DEAL[1]]),
    "three-hole-cards": replace_line("d dh p1 AhKhQhJh", "d dh p1 AhKhQh"),
    "five-hole-cards": replace_line("d dh p1 AhKhQhJh", "d dh p1 AhKhQhJhTh"),
    "hole-cards-unknown-at-showdown": hand(
        actions=["d dh p1 ????????", *CHECK_DOWN[1:-2], "p1 sm -", "p2 sm 2c3c4c5c"]
    ),
    "missing-variant": without("variant"),
    "missing-actions": without("actions"),
    "missing-min-bet": without("min_bet"),
    "missing-starting-stacks": without("starting_stacks"),
    "limit-without-big-bet": {k: v for k, v in hand("FO").items() if k != "big_bet"},
    "wrong-variant-NT": hand("NT"),
    "wrong-variant-FT": hand("FT"),
    "wrong-variant-PO-9": hand("PO/9"),
    "straddle": hand(
        "NO",
        ["d dh p1 AhKhQhJh", "d dh p2 2c3c4c5c", "d dh p3 6s7s8s9s", "p1 f", "p2 f"],
        antes=[0, 0, 0],
        # docs/rules.md, Home-game options: a straddle is "exactly twice the big blind".
        blinds_or_straddles=[1, 2, 3],
        starting_stacks=[100, 100, 100],
    ),
    "antes-of-the-wrong-length": hand(antes=[0, 0, 0]),
    "zero-starting-stack": hand(starting_stacks=[100, 0]),
    "one-player": hand(
        antes=[0], blinds_or_straddles=[2], starting_stacks=[100], actions=[DEAL[0]]
    ),
    "twelve-players": hand(
        antes=[0] * 12,
        blinds_or_straddles=[1, 2] + [0] * 10,
        starting_stacks=[100] * 12,
        actions=[f"d dh p{k} ????????" for k in range(1, 13)],
    ),
    "stack-not-a-number": hand(starting_stacks=[100, "lots"]),
    "action-not-a-string": hand(actions=[*DEAL, 3]),
    "malformed-action": hand(actions=[*DEAL, "p2 raise 6"]),
    "malformed-toml": 'variant = "PO"\nantes = [0, 0\nactions = ["d dh p1 AhKhQhJh",\n',
    "not-a-table": "",
}


def good_hands() -> list[tuple[str, Fields]]:
    picked = []
    for path in sorted(DATA.glob("corpus-*.phhs")):
        entries = split_phhs(path.read_text())
        for entry in entries[:3]:
            assert entry.data is not None
            picked.append((entry.name, entry.data))
    return picked


def write_phhs(path: Path, hands: list[tuple[str, Fields | str]]) -> None:
    parts = []
    for name, body in hands:
        text = body if isinstance(body, str) else dumps_fields(body)
        parts.append(f'["{name}"]\n{text}')
    path.write_text("\n".join(parts))


def run_cli(path: Path) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run(
        [sys.executable, "-m", "tables.engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def mixed_file_results(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[Any]]:
    good = good_hands()
    hands: list[tuple[str, Fields | str]] = []
    corrupted = list(CORRUPTED.items())
    for k in range(max(len(good), len(corrupted))):
        if k < len(good):
            hands.append(good[k])
        if k < len(corrupted):
            hands.append(corrupted[k])
    path = tmp_path_factory.mktemp("phh") / "mixed.phhs"
    write_phhs(path, hands)
    return run_cli(path)


def test_mixed_file_exits_1_and_keeps_file_order(mixed_file_results: Any) -> None:
    code, results = mixed_file_results
    assert code == 1
    good = [name for name, _ in good_hands()]
    names = [r["hand"] for r in results]
    assert [n for n in names if n in good] == good
    assert [n for n in names if n in CORRUPTED] == list(CORRUPTED)


def test_good_hands_beside_corrupted_ones_still_replay(mixed_file_results: Any) -> None:
    _, results = mixed_file_results
    by_name = {r["hand"]: r for r in results}
    for name, data in good_hands():
        assert by_name[name] == {"hand": name, "finishing_stacks": data["finishing_stacks"]}


@pytest.mark.parametrize("name", list(CORRUPTED))
def test_every_corruption_is_refused(mixed_file_results: Any, name: str) -> None:
    _, results = mixed_file_results
    [result] = [r for r in results if r["hand"] == name]
    assert set(result) == {"hand", "error"}, result
    assert result["error"]


EXPECTED_REASONS: dict[str, str] = {
    "card-dealt-twice": "dealt twice",
    "card-not-in-deck-Zz": "not a card",
    "card-not-in-deck-1h": "not a card",
    "unknown-player-p9": "no p9",
    "bet-out-of-turn": "turn",
    "raise-below-minimum": "below the minimum 4",
    "raise-above-pot-limit-max": "above the maximum 6",
    "fifth-limit-bet-preflop": "a bet and three raises is the cap",
    "fifth-limit-bet-on-the-flop": "a bet and three raises is the cap",
    "action-after-the-hand-ended": "the hand is over",
    "truncated-before-showdown": "before the pot is awarded",
    "truncated-before-the-river": "before the pot is awarded",
    "all-in-runout-missing": "before the pot is awarded",
    "shown-cards-differ": "holds 2c3c4c5c",
    "missing-min-bet": "missing required field 'min_bet'",
    "wrong-variant-NT": "'NT' is not an Omaha code",
    "straddle": "straddle",
    "malformed-toml": "not valid TOML",
    "hole-cards-unknown-at-showdown": "unknown",
}


@pytest.mark.parametrize(("name", "reason"), list(EXPECTED_REASONS.items()))
def test_errors_say_why(mixed_file_results: Any, name: str, reason: str) -> None:
    _, results = mixed_file_results
    [result] = [r for r in results if r["hand"] == name]
    assert reason in result["error"]


def test_a_file_of_good_hands_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "good.phhs"
    write_phhs(path, list(good_hands()))  # type: ignore[arg-type]
    code, results = run_cli(path)
    assert code == 0
    assert all("finishing_stacks" in r for r in results)


def test_a_single_phh_file_is_named_by_its_file_name(tmp_path: Path) -> None:
    path = tmp_path / "one hand.phh"
    path.write_text(dumps_fields(hand()))
    code, results = run_cli(path)
    assert (code, results) == (0, [{"hand": "one hand.phh", "finishing_stacks": [102, 98]}])
    path.write_text("variant = ")
    code, results = run_cli(path)
    assert code == 1 and results[0]["hand"] == "one hand.phh" and "TOML" in results[0]["error"]


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    code, results = run_cli(tmp_path / "nowhere.phhs")
    assert code == 1 and "error" in results[0]


def test_a_hand_name_used_twice_is_refused_the_second_time(tmp_path: Path) -> None:
    path = tmp_path / "twice.phhs"
    good = dumps_fields(hand(actions=[*DEAL, "p2 f"]))
    path.write_text(f"[same]\n{good}\n[same]\n{good}\n[other]\n{good}")
    code, results = run_cli(path)
    assert code == 1
    assert results[0] == {"hand": "same", "finishing_stacks": [101, 99]}
    assert results[1]["hand"] == "same" and "twice" in results[1]["error"]
    assert results[2] == {"hand": "other", "finishing_stacks": [101, 99]}
