"""The reader of The Tournament Director's saves: what it takes, and what it refuses in
bounded time, never running anything of the file.

Bounded time is checked as a ratio, not a number of seconds: the CPU time of reading a
hostile text against that of reading a plain save of the same size, side by side in this
process (``cpu_ratio``). A quadratic reader is thousands of times slower on these sizes, and
a busy machine slows both sides alike."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from series import tdt
from series.tdt import TDFileError, TDObject, tdt_decode, tdt_parse, tdt_read

DATA = Path(__file__).resolve().parent / "data" / "td"


def save(body: str, version: str = "3.7.2") -> str:
    return '{ V: "' + version + '", T: new Tournament({' + body + "}) }"


def cpu_seconds(read: str) -> float:
    """The CPU time of reading ``read``, refused or not: the least of three."""
    times = []
    for _ in range(3):
        started = time.process_time()
        try:
            tdt_parse(read)
        except TDFileError:
            pass
        times.append(time.process_time() - started)
    return min(times)


def plain_save(size: int) -> str:
    """A save that reads without a fault, of about ``size`` characters: one long string,
    a single match of the regular expression."""
    return save('X: "' + "a" * size + '"')


def cpu_ratio(hostile: str, plain: str) -> float:
    """How many times the CPU of reading ``plain`` reading ``hostile`` takes."""
    assert abs(len(hostile) - len(plain)) <= len(plain) // 10, "texts of the same size"
    with pytest.raises(TDFileError):
        tdt_parse(hostile)
    return cpu_seconds(hostile) / max(cpu_seconds(plain), 1e-4)


def test_constructors_maps_and_values() -> None:
    text = save(
        'Title: "Night \\"one\\"", N: -12.5, E: 1e3, B: true, Z: null, U: undefined, '
        "'Q': 'it\\'s', Esc: \"a\\u00e9\\x41\\n\", "
        'P: Map.from([["a", new GamePlayer({Nickname: "Ann"})], ["b", 2]]), '
        "Old: new Map({k: 1}), Rake: new PerPlayerRake([0, 5]), Dot: new LO.Set({}), "
        "Trailing: [1, 2,], Empty: {}, Nothing: []"
    )
    t = tdt_parse(text)["T"]
    assert isinstance(t, TDObject) and t.kind == "Tournament"
    assert t["Title"] == 'Night "one"' and t["N"] == -12.5 and t["E"] == 1000.0
    assert t["B"] is True and t["Z"] is None and t["U"] is None and t["Q"] == "it's"
    assert t["Esc"] == "aéA\n"
    assert t["P"]["a"].kind == "GamePlayer" and t["P"]["a"]["Nickname"] == "Ann"
    assert t["P"]["b"] == 2 and t["Old"] == {"k": 1}
    assert t["Rake"].kind == "PerPlayerRake" and t["Rake"].args == [[0, 5]]
    assert t["Dot"].kind == "LO.Set"
    assert t["Trailing"] == [1, 2] and t["Empty"] == {} and t["Nothing"] == []


def test_utf8_bom_and_latin1() -> None:
    text = save('Title: "Halvårsfinal"')
    assert tdt_read(text.encode("utf-8"))["T"]["Title"] == "Halvårsfinal"
    assert tdt_read(b"\xef\xbb\xbf" + text.encode("utf-8"))["T"]["Title"] == "Halvårsfinal"
    assert tdt_read(text.encode("latin-1"))["T"]["Title"] == "Halvårsfinal"


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "does not start"),
        ("date,event,player,place\n", "does not start"),
        ("<html></html>", "does not start"),
        ("{ V: 3 }", "not a TD save"),
        ('{ V: "3.7", T: {Title: "x"} }', "not a TD save"),
        ('{ V: "3.7", T: new Player({}) }', "not a TD save"),
        ('{ V: "4.0", T: new Tournament({}) }', "TD 4.0"),
        (save("X: eval(1)"), "unexpected"),
        (save("X: Function"), "unexpected name"),
        (save('X: alert("x")'), "unexpected"),
        (save("X: 1 + 1"), "expected, not “+”"),
        (save("X: `template`"), "unexpected"),
        (save("X: /regex/"), "unexpected"),
        (save("X: () => 1"), "unexpected"),
        (save("X: new true()"), "constructor"),
        (save("X: Map.from(1)"), "Map.from"),
        (save("X: Map.from([[{}, 1]])"), "Map.from"),
        (save("X: new Map([1])"), "Map"),
        (save('"X" 1'), "expected"),
        (save("X: 1") + " ; alert(1)", "after the end"),
        (save('X: "never closed'), "unexpected"),
        ('{ V: "3.7", T: new Tournament({X: [1, 2', "ends too early"),
        ('{ V: "3.7", T: new Tournament({X: \x00}) }', "NUL"),
    ],
)
def test_what_is_not_a_save_is_refused_with_a_reason(text: str, says: str) -> None:
    with pytest.raises(TDFileError) as refused:
        tdt_parse(text)
    assert says in str(refused.value)


def test_deep_nesting_is_refused_quickly() -> None:
    for opening, closing in (("[", "]"), ("{a: ", "}"), ("new A(", ")")):
        text = save("X: " + opening * 100_000 + "1" + closing * 100_000)
        with pytest.raises(TDFileError, match="nest"):
            tdt_parse(text)
        assert cpu_ratio(text, plain_save(len(text))) < 10
    # Within the limit, nesting is fine.
    assert tdt_parse(save("X: " + "[" * 60 + "1" + "]" * 60))["T"]["X"]


def test_size_limit_is_checked_before_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tdt, "MAX_BYTES", 1000)
    with pytest.raises(TDFileError, match="larger than"):
        tdt_decode(b" " * 1001)
    with pytest.raises(TDFileError, match="larger than"):
        tdt_parse(" " * 1001)


def test_a_long_hostile_text_is_read_in_linear_time() -> None:
    # Unclosed strings and long runs of backslashes, the usual traps of a regular
    # expression, are refused in about the time a plain save of their size is read.
    for text, plain in (
        (save('X: "' + "\\\\" * 200_000), plain_save(400_000)),
        (save('X: "' + "a" * 1_000_000), plain_save(1_000_000)),
        (save("X: " + "-" * 500_000), plain_save(500_000)),
    ):
        assert cpu_ratio(text, plain) < 10


def test_time_grows_with_the_size_alone() -> None:
    def timed(count: int) -> float:
        text = save("X: [" + "[1, {a: 'b'}]," * count)
        with pytest.raises(TDFileError):
            tdt_parse(text)
        return cpu_seconds(text)

    small, large = timed(5_000), timed(20_000)
    assert large < 8 * small


def test_every_save_kept_with_the_tests_is_read() -> None:
    files = sorted(DATA.glob("*.tdt"))
    assert len(files) >= 12
    versions = set()
    for path in files:
        versions.add(tdt_read(path.read_bytes())["V"])
    assert {"3.0", "3.4.3", "3.7.1", "3.7.2"} <= versions
