"""A reader of The Tournament Director's save files (``.tdt``, TD 3.0 to 3.7).

A save is a JavaScript-like literal::

    { V: "3.7.2", T: new Tournament({UUID: "...", Title: "...", Players: new GamePlayers({
      Players: Map.from([["uuid", new GamePlayer({...})], ...])}), ...}) }

This module reads it with a tokenizer and a recursive-descent parser of its own: nothing of
the file reaches ``eval``, a JavaScript engine or Python's own parsers. What it accepts is
exactly: objects with bare or quoted keys, arrays, double- or single-quoted strings,
numbers, ``true``, ``false``, ``null``, ``undefined``, ``new Name(arguments)`` and
``Map.from([[key, value], ...])``. Everything else is refused with the place it was found.

Bounded: a file over ``MAX_BYTES`` is refused before it is read further, values nested over
``MAX_DEPTH`` deep are refused, and the reader touches each character a fixed number of
times, so its time and memory grow with the file's size alone.

    >>> save = tdt_parse('{ V: "3.7.2", T: new Tournament({Title: "Night", N: [1, 2.5]}) }')
    >>> save["T"].kind, save["T"]["Title"], save["T"]["N"]
    ('Tournament', 'Night', [1, 2.5])
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

# The largest save read. TD's saves of a night are some 200 KB; one with a long history
# of a big field is under 2 MB.
MAX_BYTES = 4 * 1024 * 1024
# How deep values nest: TD's saves go some 12 levels down.
MAX_DEPTH = 64

# Every token of the text, in one pass of the regular-expression engine: strings, numbers,
# names (dotted: ``Map.from``, ``LO.Set``), punctuation, and any other single character
# (refused by the parser). Whitespace between them is skipped.
TOKENS = re.compile(
    r"""\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""
    r"""|-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"""
    r"""|[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*"""
    r"""|\S)""",
    re.DOTALL,
)
NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
NUMBER_START = frozenset("-.0123456789")
PUNCTUATION = frozenset("{}[](),:")
SPACE = re.compile(r"\s*")
ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
CONSTANTS: dict[str, Any] = {"true": True, "false": False, "null": None, "undefined": None}


class TDFileError(ValueError):
    """A file that is not a TD save this reader takes; the message says why (and where)."""


class TDObject(dict[str, Any]):
    """A ``new Name({...})`` of the save: its fields, and its constructor's name."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, fields: dict[str, Any], args: list[Any]) -> None:
        super().__init__(fields)
        self.kind = kind
        self.args = args  # the constructor's arguments when they are not one object

    def __repr__(self) -> str:
        return f"{self.kind}({dict.__repr__(self)})"


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "ux" and len(code) > 1:
        return chr(int(code[1:], 16))
    return SIMPLE_ESCAPES.get(code, code)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = TOKENS.findall(text)
        self.index = 0
        self.depth = 0

    def where(self, index: int) -> int:
        """The character at which token ``index`` starts (computed for a refusal only)."""
        for number, match in enumerate(TOKENS.finditer(self.text)):
            if number == index:
                return match.start(1)
        return len(self.text)

    def fail(self, message: str, index: int | None = None) -> TDFileError:
        at = self.where(self.index - 1 if index is None else index)
        return TDFileError(
            _("%(message)s (at character %(position)s).") % {"message": message, "position": at + 1}
        )

    def take(self) -> str:
        if self.index >= len(self.tokens):
            raise self.fail(_("the file ends too early"), len(self.tokens))
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, punct: str) -> None:
        token = self.take()
        if token != punct:
            raise self.fail(
                _("“%(wanted)s” expected, not “%(found)s”") % {"wanted": punct, "found": token[:12]}
            )

    def peek(self, punct: str) -> bool:
        if self.index < len(self.tokens) and self.tokens[self.index] == punct:
            self.index += 1
            return True
        return False

    def value(self) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(_("values nest more than %(depth)s deep") % {"depth": MAX_DEPTH})
        token = self.take()
        first = token[0]
        try:
            if first == '"' or first == "'":
                if len(token) < 2 or token[-1] != first:
                    raise self.fail(_("unexpected “%(text)s”") % {"text": token[:12]})
                body = token[1:-1]
                return ESCAPE.sub(_unescape, body) if "\\" in body else body
            if first in NUMBER_START:
                if len(token) == 1 and first in "-.":
                    raise self.fail(_("unexpected “%(text)s”") % {"text": token})
                return float(token) if any(c in token for c in ".eE") else int(token)
            if first == "{":
                return self.object()
            if first == "[":
                return self.array("]")
            if first not in NAME_START:
                raise self.fail(_("unexpected “%(text)s”") % {"text": token[:12]})
            if token in CONSTANTS:
                return CONSTANTS[token]
            if token == "new":
                return self.construct()
            if token == "Map.from":
                return self.map_from()
            raise self.fail(_("unexpected name “%(name)s”") % {"name": token[:40]})
        finally:
            self.depth -= 1

    def object(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if self.peek("}"):
            return fields
        while True:
            key = self.take()
            if key[0] in "\"'" and len(key) > 1 and key[-1] == key[0]:
                key = key[1:-1]
            elif key[0] not in NAME_START or "." in key:
                raise self.fail(_("a field's name expected, not “%(text)s”") % {"text": key[:12]})
            self.expect(":")
            fields[key] = self.value()
            if self.peek("}"):
                return fields
            self.expect(",")
            if self.peek("}"):  # a trailing comma
                return fields

    def array(self, closing: str) -> list[Any]:
        items: list[Any] = []
        if self.peek(closing):
            return items
        while True:
            items.append(self.value())
            if self.peek(closing):
                return items
            self.expect(",")
            if self.peek(closing):
                return items

    def construct(self) -> Any:
        name = self.take()
        if name[0] not in NAME_START or name in CONSTANTS:
            raise self.fail(_("a constructor's name expected after “new”"))
        at = self.index
        self.expect("(")
        args = self.array(")")
        if name == "Map":
            # TD 3.3 and 3.4: new Map({key: value}).
            if len(args) == 1 and isinstance(args[0], dict):
                return dict(args[0])
            if not args:
                return {}
            raise self.fail(_("a Map of something else than an object"), at)
        if len(args) == 1 and type(args[0]) is dict:
            return TDObject(name, args[0], [])
        return TDObject(name, {}, args)

    def map_from(self) -> dict[Any, Any]:
        at = self.index - 1
        self.expect("(")
        pairs = self.array(")")
        if len(pairs) != 1 or not isinstance(pairs[0], list):
            raise self.fail(_("Map.from takes one list of pairs"), at)
        result: dict[Any, Any] = {}
        for pair in pairs[0]:
            if not isinstance(pair, list) or len(pair) != 2 or isinstance(pair[0], dict | list):
                raise self.fail(_("Map.from takes one list of pairs"), at)
            result[pair[0]] = pair[1]
        return result


def tdt_decode(data: bytes) -> str:
    """The text of a save: UTF-8 (with or without a byte-order mark), else Latin-1, as
    TD's older versions wrote it."""
    if len(data) > MAX_BYTES:
        raise TDFileError(
            _("The file is larger than %(size)s MB: it is not a TD save this site reads.")
            % {"size": MAX_BYTES // (1024 * 1024)}
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def tdt_parse(text: str) -> dict[str, Any]:
    """The save's top object (``V``: TD's version, ``T``: the ``Tournament``), or
    ``TDFileError`` saying why the text is not a TD save."""
    if len(text) > MAX_BYTES:
        raise TDFileError(
            _("The file is larger than %(size)s MB: it is not a TD save this site reads.")
            % {"size": MAX_BYTES // (1024 * 1024)}
        )
    if "\x00" in text:
        raise TDFileError(_("The file holds a NUL character: it is not a TD save."))
    start = SPACE.match(text)
    if start is None or not text.startswith("{", start.end()):
        raise TDFileError(_("The file does not start as a TD save does (“{ V: …”)."))
    parser = _Parser(text)
    try:
        save = parser.value()
    except RecursionError:
        raise parser.fail(_("values nest too deep")) from None
    if parser.index != len(parser.tokens):
        # TD ends its saves with the object; anything after it is not TD's.
        raise parser.fail(_("text after the end of the save"), parser.index)
    tournament = save.get("T") if isinstance(save, dict) else None
    version = save.get("V") if isinstance(save, dict) else None
    if not isinstance(version, str) or not isinstance(tournament, TDObject):
        raise TDFileError(_("The file is not a TD save: it has no version and tournament."))
    if tournament.kind != "Tournament":
        raise TDFileError(_("The file is not a TD save: it has no version and tournament."))
    if not version.startswith("3."):
        raise TDFileError(
            _("The file was saved by TD %(version)s: this site reads TD 3.0 to 3.7.")
            % {"version": version[:12]}
        )
    return save


def tdt_read(data: bytes) -> dict[str, Any]:
    """``tdt_parse`` of a save's bytes."""
    return tdt_parse(tdt_decode(data))
