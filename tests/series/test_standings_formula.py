"""The director's formula language: worked examples, and every refusal naming its column."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import pytest

from series import formula
from series.formula import MAX_DEPTH, MAX_LENGTH, Formula, FormulaError

RESULT = {
    "n": 16,
    "k": 4,
    "b": 20,
    "rebuys": 1,
    "addons": 1,
    "knockouts": 3,
    "prize": 120,
    "bounties": 15,
}


def value(text: str, **overrides: float) -> float:
    return Formula.parse(text).evaluate({**RESULT, **overrides})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("2 ^ 3 ^ 2", 512),  # ^ groups to the right: 2^(3^2)
        ("2 ** 3", 8),
        ("-2 ^ 2", -4),  # the power binds tighter than the minus, as on paper
        ("--3", 3),
        ("10 / 4", 2.5),
        ("sqrt(n)", 4),
        ("log(100)", 2),
        ("log10(1000)", 3),
        ("round(ln(1), 0)", 0),
        ("min(k, 3, 10)", 3),
        ("max(n - k, 0)", 12),
        ("round(10 / 3, 2)", 3.33),
        ("abs(1 - n)", 15),
        ("k <= 4", 1),
        ("k > 4", 0),
        ("k = 4 and n == 16", 1),
        ("k != 4 or not b", 0),
        ("if(k = 1, 100, 50)", 50),
        ("if k <= 3 then 100 / k else knockouts * 2", 6),
        ("if (k < 5) then 1 else 2", 1),
        ("prize + bounties - 20 * (1 + rebuys) - 20 * addons", 75),
        ("IF K = 4 THEN 1 ELSE 0", 1),
    ],
)
def test_worked_examples(text: str, expected: float) -> None:
    assert value(text) == pytest.approx(expected)


def test_the_square_root_formula_written_out() -> None:
    # 10·√16/√4·(1 + log10(20.25)) = 20 × 2.306425 = 46.1285
    assert value("10 * sqrt(n) / sqrt(k) * (1 + log10(b + 0.25))") == pytest.approx(46.1285, 1e-5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("n + x", "unknown name 'x' at column 5"),
        ("__import__", "unknown name '__import__' at column 1"),
        ("n.real", "attribute access ('n.') is not allowed at column 2"),
        ("(n).real", "attribute access is not allowed at column 4"),
        ("sqrt(n).__class__", "attribute access is not allowed at column 8"),
        ("open(1)", "unknown function 'open' at column 1"),
        ("cos(2)", "unknown function 'cos' at column 1"),
        ("eval(1)", "unknown function 'eval' at column 1"),
        ("n(1)", "unknown function 'n' at column 1"),
        ("sqrt n", "expected '(' after sqrt at column 6"),
        ("min(1)", "min takes at least 2 arguments, not 1, at column 1"),
        ("sqrt(1, 2)", "sqrt takes 1 arguments, not 2, at column 1"),
        ("(1 + 2", "expected ')' at column 7"),
        ("1 + 2)", "unexpected ')' at column 6"),
        ("1 +", "formula ends too soon at column 4"),
        ("if k then 1", "expected 'else' at column 12"),
        ("n ; k", "unexpected ';' at column 3"),
        ("'a'", "unexpected ''' at column 1"),
        ("n[0]", "unexpected '[' at column 2"),
        ("12abc", "unexpected 'a' at column 3"),
        ("1e400", "unexpected 'e' at column 2"),
        ("1234567890123", "number too long at column 1"),
        ("", "the formula is empty"),
        ("n²", "unexpected '²' at column 2"),
        ("٣ + 1", "unexpected '٣' at column 1"),
        ("ñ", "unexpected 'ñ' at column 1"),
    ],
)
def test_refused_with_the_position(text: str, message: str) -> None:
    with pytest.raises(FormulaError) as error:
        Formula.parse(text)
    assert str(error.value) == message


def test_a_too_long_formula_is_refused() -> None:
    with pytest.raises(FormulaError, match=f"at most {MAX_LENGTH}"):
        Formula.parse("1 + " * 100 + "1")


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(FormulaError, match="nested too deeply"):
        Formula.parse("(" * 60 + "1" + ")" * 60)


def nested_ifs(depth: int) -> str:
    """``if(if(k) then 1 else 1) then 1 else 1``, ``depth`` ifs deep: each ``if(`` may open
    either form of if, so a parser that guesses and backtracks reads it twice (2^depth)."""
    text = "k"
    for _ in range(depth):
        text = f"if({text}) then 1 else 1"
    return text


@contextmanager
def python_calls(budget: int = 20_000) -> Iterator[list[int]]:
    """Counts the Python function calls made inside, through Python's profiler hook: the
    parser's work, exact whatever else the machine is doing. Past ``budget`` it fails at
    once, where a parser that reads the same text again and again would take hours."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            count[0] += 1
            assert count[0] <= budget, "the parser reads the same text again and again"

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(before)


@pytest.fixture
def no_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The length and depth limits lifted, so the parser's own cost shows."""
    monkeypatch.setattr(formula, "MAX_LENGTH", 100_000)
    monkeypatch.setattr(formula, "MAX_DEPTH", 1_000)


def test_parsing_nested_ifs_is_linear_in_their_depth(no_limits: None) -> None:
    with python_calls() as at_20:
        Formula.parse(nested_ifs(20))
    with python_calls() as at_40:
        Formula.parse(nested_ifs(40))
    assert at_40[0] <= 2 * at_20[0]


def test_a_40_deep_formula_parses_within_the_call_budget(no_limits: None) -> None:
    text = nested_ifs(40)
    with python_calls():
        parsed = Formula.parse(text)
    assert parsed.evaluate(RESULT) == 1


def test_the_deepest_formula_the_limits_allow_parses_within_the_call_budget() -> None:
    depth = max(d for d in range(60) if len(nested_ifs(d)) <= MAX_LENGTH)
    text = nested_ifs(depth)
    try:
        with python_calls():
            Formula.parse(text)
    except FormulaError as error:  # past the depth limit, if that is the tighter one
        assert "nested too deeply" in error.message and MAX_DEPTH < 2 * depth
    with python_calls(), pytest.raises(FormulaError, match=f"at most {MAX_LENGTH}"):
        Formula.parse(nested_ifs(40))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("if(k, 1)", "if takes 3 arguments, not 2, at column 1"),
        ("if(k, 1, 2, 3)", "if takes 3 arguments, not 4, at column 1"),
        ("if(k then 1 else 2", "expected ')' at column 6"),
        ("if(k) 1 else 2", "expected 'then' at column 7"),
        ("if(k, 1, 2) then 3 else 4", "unexpected 'then' at column 13"),
    ],
)
def test_a_broken_if_is_refused_with_the_position(text: str, message: str) -> None:
    with pytest.raises(FormulaError) as error:
        Formula.parse(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if (k) + 1 > 4 then 1 else 2", 1),  # a bracketed start of the condition
        ("if(k > 4, 1, if(k = 4, 2, 3))", 2),
        ("if if(k = 4, 1, 0) then 5 else 6", 5),
        ("if(if(k > 1) then 0 else 1) then 7 else 8", 8),
        ("2 * if(k = 4, 3, 0) + 1", 7),
    ],
)
def test_both_forms_of_if_nest_and_mix(text: str, expected: float) -> None:
    assert value(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2 ^ 100", "exponent 100 is above 16 at column 3"),
        ("n ^ (n + 1)", "exponent 17 is above 16 at column 3"),
        ("999999 * 999999", "result too large at column 8"),
        ("9 ^ 16 * 1000", "result too large"),
        ("max(999999 * 9999, 1)", "result too large at column 12"),
    ],
)
def test_huge_exponents_and_results_are_refused(text: str, message: str) -> None:
    formula = Formula.parse(text)
    with pytest.raises(FormulaError, match=message):
        formula.evaluate(RESULT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("100 / (k - 4)", "division by zero at column 5"),
        ("100 / b", "division by zero at column 5"),
        ("0 ^ -1", "division by zero at column 3"),
        ("sqrt(1 - n)", "square root of a negative number (-15) at column 1"),
        ("log(b)", "log of 0 (not above 0) at column 1"),
        ("(-8) ^ 0.5", "fractional power of a negative number at column 6"),
    ],
)
def test_a_result_that_cannot_be_computed_is_reported(text: str, message: str) -> None:
    formula = Formula.parse(text)  # reads fine: the failure depends on the result
    with pytest.raises(FormulaError) as error:
        formula.evaluate({**RESULT, "b": 0})
    assert str(error.value) == message
    assert error.value.column is not None


def test_no_python_evaluation_reaches_the_text() -> None:
    # Each of these would do something in Python; here each is only a refusal.
    for text in ("__builtins__", "().__class__", "lambda: 1", "import os", "[].pop"):
        with pytest.raises(FormulaError):
            Formula.parse(text)


def test_any_text_is_either_a_formula_or_a_formula_error() -> None:
    import random

    rng = random.Random(12)
    alphabet = "nkb0123456789.+-*/^()<>=!, ifthenelsandorsqrtlogminmaxabs_x'\"[]{}²;"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        try:
            formula = Formula.parse(text)
        except FormulaError as error:
            assert error.column is not None
            continue
        try:
            formula.evaluate(RESULT)
        except FormulaError:
            pass
