"""A fast reader for the plain TOML that hand histories are written in.

`tomllib` reads any TOML character by character in Python, which costs more than replaying
the hand it describes. PHH files, ours and PokerKit's, use a small part of TOML: comments,
bare keys, `[name]` table headers, and values that are strings without escapes, decimal
integers, plain floats, booleans and arrays of those (on one line or several). `loads`
reads exactly that part with a few regular expressions, and returns None for anything else
(an escape, a quoted or dotted key, a date, an inline table, a key given twice, a syntax
error), so the caller can hand the text to `tomllib`, which gives the same result or the
error. Floats are returned as `decimal.Decimal` of their text, as
``tomllib.loads(text, parse_float=Decimal)`` returns them.

>>> loads("[a]\\nx = [1, 'p1 f # no comment', 2.50]  # a comment\\ny = true\\n")
{'a': {'x': [1, 'p1 f # no comment', Decimal('2.50')], 'y': True}}
>>> loads('x = "\\\\u00e9"') is None  # an escape: left to tomllib
True
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

# Characters TOML allows in a comment and in a one-line string: anything but the control
# characters other than tab (and the string's own quote; a basic string's backslash starts
# an escape, which is left to tomllib).
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)"
_LITERAL = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_BASIC = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_INTEGER = r"-?(?:0|[1-9][0-9]*)"
_FLOAT = r"-?(?:0|[1-9][0-9]*)\.[0-9]+"
_SCALAR = rf"(?:{_LITERAL}|{_BASIC}|{_FLOAT}|{_INTEGER}|true|false)"
# Spaces, newlines and whole-line comments between an array's elements. Written as one run
# of spaces then (comment, newline, spaces) groups, the same text as "(?:[ \t\n]|comment\n)*"
# but matched in one step per run rather than one group per character: a hand's lines
# matched in about half the time.
_ARRAY_SPACE = rf"[ \t\n]*(?:{_COMMENT}\n[ \t\n]*)*"
_ARRAY = (
    rf"\[{_ARRAY_SPACE}(?:{_SCALAR}{_ARRAY_SPACE}(?:,{_ARRAY_SPACE}{_SCALAR}{_ARRAY_SPACE})*"
    rf"(?:,{_ARRAY_SPACE})?)?\]"
)
_END = rf"[ \t]*{_COMMENT}?(?:\n|\Z)"

_LINE = re.compile(
    rf"[ \t]*(?:"
    rf"(?P<key>[A-Za-z0-9_-]+)[ \t]*=[ \t]*(?P<value>{_SCALAR}|{_ARRAY})"
    rf"|\[[ \t]*(?P<table>[A-Za-z0-9_-]+)[ \t]*\]"
    rf")?{_END}"
)
"""One line: blank, a comment, a `key = value` (an array may run over several lines), or a
`[table]` header; each may end in a comment."""

_ELEMENT = re.compile(
    rf"'([^'\x00-\x08\x0a-\x1f\x7f]*)'|\"([^\"\\\x00-\x08\x0a-\x1f\x7f]*)\"|({_FLOAT})"
    rf"|({_INTEGER})|(true)|(false)|{_COMMENT}"
)
"""Scans a validated array left to right: each match is an element or a comment."""


def _scalar(text: str) -> Any:
    first = text[0]
    if first == "'" or first == '"':
        return text[1:-1]
    if text == "true":
        return True
    if text == "false":
        return False
    if "." in text:
        return decimal(text)
    return int(text)


def decimal(text: str) -> Any:
    """`decimal.Decimal(text)`; `decimal` (1 ms) is imported by the first float, which hand
    histories rarely hold."""
    from decimal import Decimal  # noqa: PLC0415 - see the docstring

    return Decimal(text)


def _array(text: str) -> list[Any]:
    """The values of an array `_LINE` has checked."""
    if "#" not in text:
        # The usual arrays, all numbers or all strings of one quote, split at C speed.
        if "'" not in text and '"' not in text:
            items = text[1:-1].split(",")
            if not items[-1].strip():
                items.pop()  # a trailing comma, or an empty array
            if "." in text or "e" in text:  # a float, true or false among the numbers
                return [_scalar(item.strip()) for item in items]
            return [int(item) for item in items]  # int() allows the spaces around
        # All strings of one quote (the actions): `_LINE` has checked that no string holds
        # its own quote, so splitting at the quotes gives the strings, between what is left
        # of the array (only brackets, commas and spaces when every element is a string).
        for quote, other in (("'", '"'), ('"', "'")):
            if other not in text:
                parts = text.split(quote)
                if not "".join(parts[0::2]).strip("[], \t\n"):
                    return parts[1::2]
                break
    values: list[Any] = []
    for found in _ELEMENT.finditer(text):
        literal, basic, number, integer, true, false = found.groups()
        if literal is not None:
            values.append(literal)
        elif basic is not None:
            values.append(basic)
        elif integer is not None:
            values.append(int(integer))
        elif number is not None:
            values.append(decimal(number))
        elif true is not None:
            values.append(True)
        elif false is not None:
            values.append(False)
    return values


def loads(text: str) -> dict[str, Any] | None:
    """The document as `tomllib.loads(text, parse_float=Decimal)` reads it, or None when the
    text uses TOML beyond this subset (or is not TOML): then ask `tomllib`."""
    document: dict[str, Any] = {}
    table = document
    position = 0
    size = len(text)
    match = _LINE.match
    while position < size:
        found = match(text, position)
        if found is None or found.end() == position:
            return None
        position = found.end()
        key = found.group("key")
        if key is not None:
            if key in table:
                return None
            value = found.group("value")
            table[key] = _array(value) if value[0] == "[" else _scalar(value)
            continue
        name = found.group("table")
        if name is not None:
            if name in document:
                return None
            table = document[name] = {}
    return document
