"""Every hand of the PokerKit-played corpus replays to PokerKit's finishing stacks.

The corpus (tests/engine/data/corpus-*.phhs) is written by `gen_phh_corpus.py`: random
hands of all six codes, heads-up and three to six players, no antes, antes for everyone and
big-blind antes, each with the finishing stacks PokerKit paid out. Hands where our rules
knowingly differ from PokerKit's are left out there (see that module's docstring).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tables.engine.phh import PhhHand, dumps_fields, finishing_stacks, replay, split_phhs
from tests.engine.gen_phh_corpus import pokerkit_finishing_stacks

DATA = Path(__file__).parent / "data"
CORPUS = sorted(DATA.glob("corpus-*.phhs"))


def corpus_hands() -> list[tuple[str, dict[str, object]]]:
    hands = []
    for path in CORPUS:
        for entry in split_phhs(path.read_text()):
            assert entry.data is not None, entry.error
            hands.append((f"{path.name}:{entry.name}", entry.data))
    return hands


HANDS = corpus_hands()


def test_corpus_covers_six_codes_heads_up_and_antes() -> None:
    codes = {data["variant"] for _, data in HANDS}
    assert codes == {"FO", "FO/8", "PO", "PO/8", "NO", "NO/8"}
    assert len(HANDS) >= 300
    assert any(len(data["starting_stacks"]) == 2 for _, data in HANDS)  # type: ignore[arg-type]
    antes = [data["antes"] for _, data in HANDS]
    assert any(len(set(a)) == 1 and a[0] for a in antes)  # type: ignore[index]
    assert any(a[1] and not a[0] for a in antes)  # type: ignore[index]


@pytest.mark.parametrize(("name", "data"), HANDS, ids=[name for name, _ in HANDS])
def test_corpus_hand_replays_to_pokerkit_stacks(name: str, data: dict[str, object]) -> None:
    game = replay(PhhHand.from_fields(data))
    assert finishing_stacks(game) == data["finishing_stacks"]


@pytest.mark.parametrize(("name", "data"), HANDS[::7], ids=[name for name, _ in HANDS[::7]])
def test_pokerkit_reader_agrees_with_the_corpus(name: str, data: dict[str, object]) -> None:
    # The files are read by PokerKit's own HandHistory loop the same way they were played.
    text = dumps_fields({k: v for k, v in data.items() if k != "finishing_stacks"})
    assert pokerkit_finishing_stacks(text) == data["finishing_stacks"]


def test_corpus_files_are_plain_toml() -> None:
    for path in CORPUS:
        assert tomllib.loads(path.read_text())
