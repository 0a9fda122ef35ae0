"""The evaluator's stored tables (`tables/engine/_tables.bin`) are exactly what the rules
build, and the fast reader of PHH's TOML reads what `tomllib` reads."""

from __future__ import annotations

import tomllib
import zlib
from decimal import Decimal
from itertools import combinations
from pathlib import Path

import pytest

from tables.engine import _tables as t
from tables.engine import _tables_build
from tables.engine._toml_subset import loads

DATA = Path(__file__).parent / "data"


def test_the_stored_tables_are_what_the_build_script_makes() -> None:
    # zlib's framing may differ between zlib builds; the content must not, byte for byte.
    assert zlib.decompress(_tables_build.DATA_PATH.read_bytes()) == _tables_build.payload()
    assert _tables_build.main(["--check"]) == 0


def test_the_loaded_tables_match_a_fresh_build() -> None:
    assert t.FIVE_HIGH == _tables_build.five_high()
    assert t.FLUSH_BY_MASK == _tables_build.flush_by_mask()
    assert t.LOW_BEST == _tables_build.low_best()
    assert len(t.FIVE_HIGH) == 6175


def test_a_board_entry_is_the_best_of_its_five_card_combinations() -> None:
    # The row of a board, per hole rank pair, against the 5-rank values tried one by one.
    for board in [(0, 1, 2, 3, 4), (12, 12, 12, 11, 11), (5, 5, 9, 9, 0), (3, 3, 3), (7, 8, 8, 12)]:
        entry = t.board_entry([rank * 4 + k % 4 for k, rank in enumerate(board)])
        ranks = entry[0]
        for index, pair in enumerate(t.PAIRS):
            best = 0
            for triple in combinations(board, 3):
                five = sorted((*triple, *pair))
                if max(five.count(r) for r in five) <= 4:
                    best = max(best, t.FIVE_HIGH[t.rank_key(five)])
            assert entry[ranks[index]] == best, (board, pair)


@pytest.mark.parametrize("path", sorted(DATA.glob("*.ph*")), ids=lambda p: p.name)
def test_the_fast_toml_reader_reads_the_stored_hands_as_tomllib(path: Path) -> None:
    text = path.read_text()
    fast = loads(text)
    assert fast is not None
    assert fast == tomllib.loads(text, parse_float=Decimal)


@pytest.mark.parametrize(
    "text",
    [
        "x = [1, 2,\n 3,]\n",
        "x = ['a', \"b\"]",
        "x = [1, 'a', true, 2.50]",
        "x = []",
        "x = ['a#b', 'c']  # a comment",
        "x = [\n 'a', # it's\n 'b'\n]\n",
        "x = 'a\\'",
        "x = 'é'",
        "x= -0.0",
        "[a]\n[b]\nc = 1\n",
    ],
)
def test_the_fast_toml_reader_agrees_with_tomllib(text: str) -> None:
    assert loads(text) == tomllib.loads(text, parse_float=Decimal)


@pytest.mark.parametrize(
    "text",
    [
        "[t]\nx = 1\n[t]\n",  # a table twice: invalid
        "x = 1\nx = 2",  # a key twice: invalid
        "x = 01",  # a leading zero: invalid
        "x = [1,,2]",  # invalid
        "x = tru",  # invalid
        'x = "a\\""',  # an escape: valid, left to tomllib
        "x = +1",  # valid, left to tomllib
        "a = [1, [2]]",  # a nested array: valid, left to tomllib
        "x = 1 # c\r\n",  # CRLF: valid, left to tomllib
        "a.b = 1",  # a dotted key: valid, left to tomllib
    ],
)
def test_the_fast_toml_reader_leaves_the_rest_to_tomllib(text: str) -> None:
    assert loads(text) is None
