"""The console's history lines, kept as data so each reader sees them in their own language.

A director's action is logged once (``TournamentAction``) but read by every director of the
series, each in the language they chose: a summary written out as French text when a French
director acts would stay French for everyone. So a workflow builds its summary with
``message``: the text in the language active now (a ``str``, usable wherever text was), which
also remembers the catalog's message id and its arguments. The log stores those (``data``)
and ``render`` writes them again, in the reader's language, when the console shows them.

    >>> from django.utils.translation import gettext_noop
    >>> line = message(gettext_noop("Add-on: %(name)s"), name="Ann")
    >>> str(line), line.data
    ('Add-on: Ann', {'msgid': 'Add-on: %(name)s', 'args': {'name': 'Ann'}})
    >>> render(line.data)
    'Add-on: Ann'

Arguments are plain JSON values (names, numbers), other messages (nested: "Seated
%(arrival)s" with "Ann → table 1 seat 4"), lists of messages made with ``joined``, or amounts
made with ``chips`` and ``money``, written as the reader's language writes them ("had
10,000 chips", "avait 0 jeton"). Whole numbers are grouped the reader's way too. The
message id is passed through ``gettext_noop`` at the call so ``makemessages`` collects it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from core import amounts

# Between the items of a list in a summary ("Ann → table 1 seat 4, Bob → table 2 seat 1").
SEPARATOR = ", "


class Message(str):
    """Text in the active language that also carries ``data``, the way to write it again."""

    data: dict[str, Any]

    def __new__(cls, text: str, data: dict[str, Any]) -> Message:
        made = super().__new__(cls, text)
        made.data = data
        return made


def _data(value: Any) -> Any:
    return value.data if isinstance(value, Message) else value


def message(msgid: str, **args: Any) -> Message:
    """``gettext(msgid) % args`` now, and the same later in any language (``render``)."""
    data = {"msgid": msgid, "args": {name: _data(value) for name, value in args.items()}}
    return Message(render(data), data)


def chips(count: int) -> Message:
    """A number of chips as a summary's argument: "10,000 chips" for each reader."""
    data = {"chips": count}
    return Message(render(data), data)


def money(amount: int) -> Message:
    """An amount of money as a summary's argument, grouped for each reader."""
    data = {"money": amount}
    return Message(render(data), data)


def joined(items: list[Message]) -> Message:
    """Several messages as one, separated by commas."""
    data = {"join": [_data(item) for item in items]}
    return Message(render(data), data)


def render(data: Any) -> str:
    """The text of stored ``data`` (from ``message`` or ``joined``) in the active language.

    A plain value renders as itself, so a log row written before summaries were data (its
    text kept as it was written) still shows.
    """
    if isinstance(data, dict) and "join" in data:
        return SEPARATOR.join(render(item) for item in data["join"])
    if isinstance(data, dict) and "chips" in data:
        return amounts.chips(data["chips"])
    if isinstance(data, dict) and "money" in data:
        return amounts.money(data["money"])
    if isinstance(data, int) and not isinstance(data, bool):
        return amounts.number(data)
    if isinstance(data, dict) and "msgid" in data:
        args = {name: render(value) for name, value in (data.get("args") or {}).items()}
        msgid = data["msgid"]  # a stored message id: the catalog has it from the call site
        text = gettext(msgid)
        return text % args if args else text
    return "" if data is None else str(data)
