"""The evaluator's stored tables (`tables/engine/_tables.bin`) are exactly what the rules
build, and the fast reader of PHH's TOML reads what `tomllib` reads."""

from __future__ import annotations

import random
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


# Pieces of the documents below: the part of TOML the fast reader reads, and what lies just
# beyond it (escapes, quoted keys, nested arrays, bad numbers, missing commas...).
_SCALARS = ["1", "-7", "0", "2.50", "-0.0", "true", "false", "'p1 f'", '"d dh p1 AsKd"', "''",
            '""', "'a # b'", "'it\"s'", '"it\'s"', "'a]b'", '"[x]"']  # fmt: skip
_BEYOND = ["01", "+1", "1e3", "tru", '"a\\"b"', "'a\x01'", "[1, [2]]", "{a = 1}", "1979-05-27",
           "'''x'''", "nan", "'a\tb'", '"\x7f"']  # fmt: skip
_SPACES = ["", " ", "\n", "  \n  ", " # note\n", "\n# note\n  ", "# it's\n", "\t"]
_EQUALS = ["=", " = ", "\t= "]


def _array_text(rng: random.Random, beyond: bool) -> str:
    pool = _SCALARS + (_BEYOND if beyond else [])
    if rng.random() < 0.5:  # one kind, as PHH's arrays are
        pool = rng.choice([_SCALARS[:5], _SCALARS[7:9], [s for s in _SCALARS if s[0] == '"']])
    items = [rng.choice(pool) for _ in range(rng.randrange(6))]
    text = "["
    for k, item in enumerate(items):
        text += rng.choice(_SPACES) + item + rng.choice(_SPACES)
        if k < len(items) - 1 or rng.random() < 0.3:
            text += "," if not beyond or rng.random() < 0.9 else rng.choice(["", ",,"])
    return text + rng.choice(_SPACES) + "]"


def _document(rng: random.Random, beyond: bool) -> str:
    lines = []
    keys = [f"k{i}" for i in range(rng.randrange(1, 8))]
    for i, key in enumerate(keys):
        if rng.random() < 0.15:
            lines.append(f"[t{i}]")
        value = _array_text(rng, beyond) if rng.random() < 0.5 else rng.choice(_SCALARS)
        if beyond and rng.random() < 0.1:
            value = rng.choice(_BEYOND)
        lines.append(key + rng.choice(_EQUALS) + value + rng.choice(["", "  # c"]))
    if beyond and rng.random() < 0.1:
        lines.append(rng.choice(["k0 = 2", '"q" = 1', "a.b = 1", "[t0]\n[t0]"]))
    return "\n".join(lines) + rng.choice(["", "\n"])


@pytest.mark.parametrize("beyond", [False, True])
def test_the_fast_toml_reader_agrees_with_tomllib_on_many_documents(beyond: bool) -> None:
    """Thousands of documents made from a fixed seed: inside the subset the fast reader reads
    each as `tomllib` does; beyond it, it reads the same or leaves the text to `tomllib`."""
    rng = random.Random(2026 + beyond)
    read = 0
    for _ in range(3000):
        text = _document(rng, beyond)
        fast = loads(text)
        try:
            slow = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError:
            assert fast is None, text
            continue
        if not beyond:
            assert fast is not None, text
        if fast is not None:
            read += 1
            assert fast == slow, text
    assert read == 3000 if not beyond else read > 500
