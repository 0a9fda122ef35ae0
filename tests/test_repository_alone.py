"""The repository stands alone: what its code, tests and docs cite is in the repository.

The rules, the design and the style notes were once files beside the repository, which a
clone does not have; they now live in ``docs/`` (``docs/rules.md`` and the source documents
in ``docs/rules/sources/``, ``docs/architecture.md``, ``docs/style.md``). These tests fail,
naming the file and the line, on a reference to the old outside files, on a ``docs/`` path
that does not exist, and on a one-line quote of ``docs/rules.md`` or of a source document
that is not in it word for word, so a reader who follows a citation finds what it says.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_DIRS = {".git", ".venv", "var", "staticfiles", "test-artifacts", "node_modules"}
SKIPPED_DIRS |= {"__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis"}
# The source documents are copies of pages written elsewhere: what they say is not checked.
SOURCES = Path("docs/rules/sources")

# Spelled in pieces so that this file does not match itself.
_SHARED = "sha" + "red"
OUTSIDE = re.compile(
    r"\.\./" + _SHARED + r"\b"
    r"|/work/" + _SHARED + r"\b"
    r"|\b(?:RU" + r"LES|DES" + r"IGN|STY" + r"LE)\.md\b"
    r"|(?<![\w/-])se" + r"eds/"
)
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./*-]*[\w*/]")
# A quote that opens and closes on one line: `docs/rules.md, Section: "..."`, or
# `docs/rules/sources/<file>.txt: "..."`. Longer quotes wrap, and are left to the reader.
QUOTE = re.compile(
    r"(?P<doc>docs/rules\.md|docs/rules/sources/[\w.-]+\.txt)[^\"'\n]*?:\s*(?P<mark>[\"'])"
)


def repository_files() -> list[Path]:
    """The files a clone has (and new ones not yet committed), relative to the root."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return sorted(_walk(ROOT))
    return sorted(Path(name) for name in listed.split("\0") if name and (ROOT / name).is_file())


def _walk(directory: Path) -> Iterator[Path]:
    for path in directory.iterdir():
        if path.is_dir():
            if path.name not in SKIPPED_DIRS:
                yield from _walk(path)
        elif path.is_file():
            yield path.relative_to(ROOT)


@cache
def text_files() -> dict[Path, list[str]]:
    """Every text file of the repository, as lines (binary files such as ``.mo`` left out)."""
    files = {}
    for path in repository_files():
        if path.parts[0] in SKIPPED_DIRS:
            continue
        data = (ROOT / path).read_bytes()
        if b"\0" in data:
            continue
        try:
            files[path] = data.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            continue
    return files


def _ours(path: Path) -> bool:
    return not path.is_relative_to(SOURCES)


def _words(text: str) -> str:
    """Text compared as a reader compares it: whatever its line breaks and bold marks."""
    return " ".join(text.replace("**", "").split())


def test_the_files_are_found() -> None:
    files = text_files()
    assert Path("docs/rules.md") in files and Path("tables/engine/state.py") in files
    assert len(files) > 300


def test_nothing_refers_to_a_file_outside_the_repository() -> None:
    found = [
        f"{path}:{number}: {line.strip()}"
        for path, lines in text_files().items()
        if _ours(path)
        for number, line in enumerate(lines, start=1)
        if OUTSIDE.search(line)
    ]
    assert not found, "references to files outside the repository:\n" + "\n".join(found)


def test_every_docs_path_named_exists() -> None:
    missing = []
    for path, lines in text_files().items():
        if not _ours(path):
            continue
        for number, line in enumerate(lines, start=1):
            for match in DOCS_PATH.finditer(line):
                named = match.group().rstrip(".")
                if "*" in named:
                    exists = any(ROOT.glob(named))
                else:
                    exists = (ROOT / named).exists()
                if not exists:
                    missing.append(f"{path}:{number}: {named}")
    assert not missing, "docs paths that do not exist:\n" + "\n".join(missing)


def test_the_rules_sources_are_all_kept() -> None:
    cited = {
        match.group("doc")
        for lines in text_files().values()
        for line in lines
        for match in re.finditer(r"(?P<doc>docs/rules/sources/[\w.-]+\.txt)", line)
    }
    kept = {
        str(path) for path in text_files() if path.is_relative_to(SOURCES) and path.suffix == ".txt"
    }
    assert cited and cited <= kept, sorted(cited - kept)
    readme = "\n".join(text_files()[SOURCES / "README.md"])
    for name in kept:
        assert f"`{Path(name).name}`" in readme, f"{SOURCES}/README.md does not describe {name}"


@cache
def _document(name: str) -> str:
    return _words("\n".join(text_files()[Path(name)]))


def _quoted(rest: str, mark: str) -> str | None:
    """What a quote opened with `mark` says, up to its closing mark on this line (the last
    mark that ends a word and is not part of a docstring's three), or None when the quote
    goes on to the next line. Quotes may hold quotes: "goes to the "High" side"."""
    ends = [
        k
        for k, char in enumerate(rest)
        if char == mark
        and k > 0
        and (k + 1 == len(rest) or not rest[k + 1].isalnum())
        and mark * 3 not in rest[max(0, k - 2) : k + 3]
    ]
    return rest[: ends[-1]] if ends else None


def test_one_line_quotes_of_the_rules_are_word_for_word() -> None:
    wrong = []
    for path, lines in text_files().items():
        if not _ours(path):
            continue
        for number, line in enumerate(lines, start=1):
            for match in QUOTE.finditer(line):
                quoted = _quoted(line[match.end() :], match.group("mark"))
                if quoted is None:
                    continue
                document = _document(match.group("doc"))
                # "..." leaves words out: each piece around it is quoted as it is.
                pieces = re.split(r"\s*(?:\.\.\.|…)\s*", quoted)
                for piece in filter(None, (_words(p) for p in pieces)):
                    if piece not in document:
                        wrong.append(f"{path}:{number}: {match.group('doc')}: {piece!r}")
    assert not wrong, "quotes not found word for word:\n" + "\n".join(wrong)
