"""The deck: a fresh, fair 52-card shuffle for every hand."""

import math
import random
import secrets
from statistics import NormalDist

import pytest

from tables.engine.cards import FULL_DECK, shuffled_deck

SHUFFLES = 5200
"""100 expected per (position, card) cell: enough for the chi-square approximation."""


def chi_square_quantile(df: int, p: float) -> float:
    """The `p` quantile of the chi-square distribution (Wilson–Hilferty, no scipy).

    Accurate to well under 1% for the degrees of freedom used here (51 and 2,601).
    """
    z = NormalDist().inv_cdf(p)
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def position_counts(shuffle: list[tuple[int, ...]]) -> list[list[int]]:
    counts = [[0] * 52 for _ in range(52)]
    for deck in shuffle:
        for position, card in enumerate(deck):
            counts[position][card] += 1
    return counts


def chi_squares(counts: list[list[int]]) -> list[float]:
    """Per position: the chi-square of its 52 card counts against a uniform spread."""
    expected = sum(counts[0]) / 52
    return [sum((n - expected) ** 2 for n in row) / expected for row in counts]


def naive_shuffle(rng: random.Random) -> tuple[int, ...]:
    """The classic broken shuffle (swap each card with any card): some orders too often."""
    deck = list(FULL_DECK)
    for i in range(52):
        j = rng.randrange(52)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def test_wilson_hilferty_matches_known_quantiles() -> None:
    # Tabulated: chi2(0.999; 50) = 86.661, chi2(0.95; 10) = 18.307.
    assert chi_square_quantile(50, 0.999) == pytest.approx(86.661, rel=0.005)
    assert chi_square_quantile(10, 0.95) == pytest.approx(18.307, rel=0.005)


def test_every_card_is_equally_likely_at_every_position() -> None:
    # docs/rules.md: "One 52-card deck ... shuffled afresh for every hand"; a fixed seed keeps
    # this deterministic, the thresholds are what a fair shuffle passes 99.9% of the time.
    rng = random.Random(20261122)
    counts = position_counts([shuffled_deck(rng) for _ in range(SHUFFLES)])
    per_position = chi_squares(counts)
    # 52 positions tested at once: each at 1 - 0.001/52 keeps the family at 0.1%.
    assert max(per_position) < chi_square_quantile(51, 1 - 0.001 / 52)
    # The whole 52x52 table: rows and columns are fixed totals, so (52-1)^2 freedoms.
    assert sum(per_position) < chi_square_quantile(51 * 51, 0.999)


def test_the_chi_square_check_catches_a_biased_shuffle() -> None:
    rng = random.Random(20261122)
    counts = position_counts([naive_shuffle(rng) for _ in range(SHUFFLES)])
    assert sum(chi_squares(counts)) > chi_square_quantile(51 * 51, 0.999)


def test_a_shuffle_is_the_full_deck_in_a_new_order() -> None:
    deck = shuffled_deck(random.Random(1))
    assert sorted(deck) == list(FULL_DECK)
    assert deck != FULL_DECK


def test_the_same_seed_gives_the_same_order() -> None:
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    assert shuffled_deck(random.Random(7)) != shuffled_deck(random.Random(8))


def test_the_default_generator_is_the_system_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/rules.md: "shuffled afresh for every hand by a cryptographically secure generator
    # (`secrets.SystemRandom`); nothing of one hand's shuffle is reused."
    made: list[random.Random] = []

    class Spy(secrets.SystemRandom):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    # `secrets.SystemRandom` is `random.SystemRandom`: the engine takes it from `random`.
    assert secrets.SystemRandom is random.SystemRandom
    monkeypatch.setattr(random, "SystemRandom", Spy)
    first, second = shuffled_deck(), shuffled_deck()
    assert len(made) == 2 and made[0] is not made[1]
    assert all(isinstance(rng, secrets.SystemRandom) for rng in made)
    assert sorted(first) == list(FULL_DECK) and first != second
