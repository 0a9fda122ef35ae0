"""What a night saved by The Tournament Director (TD) becomes on the site.

``td_night`` reads the ``Tournament`` of a save (``series.tdt``) into a ``TDNight``: the
event (title, start, buy-in and fee, TD's game name), its league and season, one
``TDResult`` per player who bought in, and the notes a director should read before
importing it (a prize awarded to nobody, prizes that do not add up, TD's points
adjustments...). ``td_nights_csv`` writes nights as the site's results CSV
(``docs/import.md``), the one path every import takes.

TD's rules, as its saves record them:

- every buy-in of a player after the first is a rebuy; an add-on is an add-on. What a
  buy-in costs includes its rake (``PerPlayerRake``), the fee kept outside the pool;
- a player whose last buy-in has no bust-out is still in; a later bust-out is a better
  place; players busted at the same moment share a place and the next place skips;
- each hitman of a bust-out gets a knockout when TD's "full credit" setting is on, a share
  of one otherwise; TD's hits adjustment is added;
- each prize is split among the players it was awarded to; a chop that was awarded pays its
  portions instead of those players' prizes; TD's cash adjustment is added.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core import amounts, csv_safe
from core.names import name_key
from series.tdt import TDObject

NAME_MAX = 100
TITLE_DATE = re.compile(r"(20[0-9]{2})-?([01][0-9])-?([0-3][0-9])")


@dataclass
class TDResult:
    uuid: str
    name: str
    place: int = 0
    rebuys: int = 0
    addons: int = 0
    knockouts: int = 0
    prize: int = 0
    paid_in: int = 0


@dataclass
class TDNight:
    """A night of a TD save, as the site imports it."""

    source: str  # the file's name
    uuid: str
    saved_at: int  # TD's latest moment in the save (ms): the later save of a night wins
    title: str
    starts_at: datetime | None
    day: date | None
    league: str
    season: str
    game_name: str
    buy_in: int = 0
    fee: int = 0
    results: list[TDResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    formula: str = ""
    levels: list[dict[str, int | str]] = field(default_factory=list)
    skipped: str = ""  # why the night is not imported

    @property
    def season_label(self) -> str:
        return " ".join(part for part in (self.league, self.season) if part)


def _get(value: Any, key: str, default: Any = None) -> Any:
    return value.get(key, default) if isinstance(value, dict) else default


def _number(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Decimal(0)
    if value != value or value in (float("inf"), float("-inf")):  # NaN, infinities
        return Decimal(0)
    return Decimal(str(value))


def _whole(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _rake(buy: Any) -> Decimal:
    rake = _get(buy, "Rake")
    if isinstance(rake, TDObject) and rake.args and isinstance(rake.args[0], list):
        return sum((_number(part) for part in rake.args[0]), Decimal(0))
    return _number(rake)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _name(player: Any) -> str:
    name = _get(player, "Name")
    nickname = str(_get(name, "Nickname", "") or "").strip()
    if not nickname:
        first = str(_get(name, "Firstname", "") or "")
        last = str(_get(name, "Lastname", "") or "")
        nickname = f"{first} {last}"
    return " ".join(nickname.split())[:NAME_MAX]


def _moment(milliseconds: Any) -> datetime | None:
    value = _number(milliseconds)
    # TD writes 0 for a night never started; anything outside 1990-2100 is not a date.
    if not 631152000000 <= value <= 4102444800000:
        return None
    return datetime.fromtimestamp(float(value) / 1000, tz=UTC)


def _title_day(title: str) -> date | None:
    match = TITLE_DATE.search(title)
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def _levels(tournament: Any) -> tuple[list[dict[str, int | str]], str]:
    levels: list[dict[str, int | str]] = []
    games: list[str] = []
    for level in _list(_get(_get(tournament, "Levels"), "Levels")):
        minutes = _whole(_number(_get(level, "Minutes")))
        if not isinstance(level, TDObject) or minutes <= 0:
            continue
        if level.kind == "GameBreak":
            levels.append({"kind": "break", "minutes": minutes})
            continue
        game = " ".join(str(_get(level, "GameName", "") or "").split())
        if game and game not in games:
            games.append(game)
        levels.append(
            {
                "kind": "level",
                "minutes": minutes,
                "small_blind": max(0, _whole(_number(_get(level, "SmallBlind")))),
                "big_blind": max(0, _whole(_number(_get(level, "BigBlind")))),
                "ante": max(0, _whole(_number(_get(level, "Ante")))),
            }
        )
    return levels, " / ".join(games)[:200]


def _shown(value: Decimal) -> str:
    return format(value.normalize(), "f")


def _money(value: Decimal, what: str, notes: list[str]) -> int:
    whole = _whole(value)
    if value != whole:
        notes.append(
            _("%(what)s: %(value)s rounded to %(whole)s (the site counts whole amounts).")
            % {"what": what, "value": _shown(value), "whole": whole}
        )
    return whole


def td_night(save: dict[str, Any], source: str) -> TDNight:
    """The night a save (``tdt.tdt_read``'s answer) records."""
    tournament = save["T"]
    title = " ".join(str(_get(tournament, "Title", "") or "").split())[:NAME_MAX]
    start = _moment(_get(tournament, "StartTime"))
    levels, game = _levels(tournament)
    night = TDNight(
        source=source,
        uuid=str(_get(tournament, "UUID", "") or source),
        saved_at=0,
        title=title or source[:NAME_MAX],
        starts_at=start,
        day=None,
        league=" ".join(str(_get(tournament, "LeagueName", "") or "").split()),
        season=" ".join(str(_get(tournament, "SeasonName", "") or "").split()),
        game_name=game,
        levels=levels,
    )
    formula = _get(_get(tournament, "Financials"), "PointsForPlaying")
    night.formula = str(_get(formula, "Text", "") or "").strip()
    moments = [_number(_get(tournament, "StartTime")), _number(_get(tournament, "EndTime"))]
    players = _get(_get(tournament, "Players"), "Players")
    if not isinstance(players, dict):
        players = {}
    config = _get(_get(tournament, "Players"), "Config")
    full_credit = _get(config, "FullCreditHit", True) is not False
    seen = _Seen(moments)
    entries: list[tuple[TDResult, Any]] = []
    for key, player in players.items():
        result = _entry(key, player, len(entries) + 1, full_credit, seen, night.notes)
        if result is not None:
            entries.append((result, player))
    night.saved_at = int(max(seen.moments))
    night.day = _night_day(start, title, seen.moments)
    if not entries:
        night.skipped = _("nobody bought in: the night is not imported.")
        return night
    if night.day is None:
        night.skipped = _("the save has no date, neither a start nor one in its title.")
        return night
    (night.buy_in, night.fee), _count = seen.firsts.most_common(1)[0]
    night.buy_in, night.fee = max(0, night.buy_in), max(0, night.fee)

    by_uuid = {result.uuid: result for result, _player in entries}
    _knockouts(by_uuid, seen.hits, night.notes)
    night.results = [result for result, _player in entries]
    _places(night, entries, tournament)
    _winnings(night, tournament, by_uuid)
    return night


def _places(night: TDNight, entries: list[tuple[TDResult, Any]], tournament: Any) -> None:
    """TD's ranking: those still in first, then by bust-out, the latest best."""
    still_in: list[TDResult] = []
    busted: list[tuple[Decimal, TDResult]] = []
    for result, player in entries:
        last = _list(_get(player, "Buyins"))[-1]
        bust = _get(last, "BustOut")
        if isinstance(bust, dict):
            busted.append((_number(_get(bust, "Time")), result))
        else:
            still_in.append(result)
    if len(still_in) > 1:
        chop = _chop_of(tournament, still_in)
        if chop:
            ordered = sorted(still_in, key=lambda r: -chop[r.uuid])
            place = 1
            for index, result in enumerate(ordered):
                if index and chop[result.uuid] != chop[ordered[index - 1].uuid]:
                    place = index + 1
                result.place = place
            night.notes.append(
                _("%(count)s players were still in: ranked by their chop.")
                % {"count": len(still_in)}
            )
        else:
            for result in still_in:
                result.place = 1
            night.notes.append(
                _("%(count)s players were still in and no chop says more: they share 1st place.")
                % {"count": len(still_in)}
            )
    else:
        for result in still_in:
            result.place = 1
    place = len(still_in) + 1
    busted.sort(key=lambda pair: -pair[0])
    for index, (moment, result) in enumerate(busted):
        if index and moment != busted[index - 1][0]:
            place = len(still_in) + index + 1
        result.place = place


def _chops(tournament: Any) -> list[Any]:
    return [
        c
        for c in _list(_get(_get(_get(tournament, "Players"), "Chops"), "Chops"))
        if isinstance(c, dict)
    ]


def _chop_of(tournament: Any, still_in: list[TDResult]) -> dict[str, Decimal]:
    chops = _chops(tournament)
    wanted = {result.uuid for result in still_in}
    for chop in reversed(chops):
        portions = _get(chop, "Portions")
        if isinstance(portions, dict) and wanted <= set(portions):
            return {uuid: _number(_get(portions[uuid], "CashReal")) for uuid in wanted}
    return {}


def _winnings(night: TDNight, tournament: Any, by_uuid: dict[str, TDResult]) -> None:
    notes = night.notes
    won: dict[str, Decimal] = {}
    for prize in _list(_get(_get(tournament, "Prizes"), "Prizes")):
        amount = _number(_get(prize, "CalculatedAmount", _get(prize, "Amount")))
        description = str(_get(prize, "Description", "") or "?")[:60]
        awarded = [str(u) for u in _list(_get(prize, "AwardedToPlayers")) if str(u) in by_uuid]
        if not awarded:
            if amount > 0:
                notes.append(
                    _("The prize “%(prize)s” (%(amount)s) was awarded to nobody: left out.")
                    % {"prize": description, "amount": _shown(amount)}
                )
            continue
        for uuid in awarded:
            won[uuid] = won.get(uuid, Decimal(0)) + amount / len(awarded)
    for chop in _chops(tournament):
        portions = _get(chop, "Portions")
        if _get(chop, "Awarded") is True and isinstance(portions, dict):
            for uuid, portion in portions.items():
                if uuid in by_uuid:
                    won[uuid] = _number(_get(portion, "CashReal"))
            notes.append(_("A chop was made: its players won their portions."))
    pool = Decimal(_get(_get(tournament, "Financials"), "HouseContribution", 0) or 0)
    players = _get(_get(tournament, "Players"), "Players") or {}
    for uuid, result in by_uuid.items():
        player = players.get(uuid) or next(
            (p for p in players.values() if _get(p, "UUID") == uuid), None
        )
        for buy in _list(_get(player, "Buyins")) + _list(_get(player, "AddOns")):
            pool += _number(_get(buy, "Amount")) - _rake(buy)
        adjustment = _number(_get(player, "CashAdjustment"))
        if adjustment:
            won[uuid] = won.get(uuid, Decimal(0)) + adjustment
            notes.append(
                _("%(name)s: TD's winnings adjustment of %(amount)s.")
                % {"name": result.name, "amount": _shown(adjustment)}
            )
    total = Decimal(0)
    for uuid, amount in won.items():
        result = by_uuid[uuid]
        if amount < 0:
            notes.append(_("%(name)s: winnings below 0 counted as 0.") % {"name": result.name})
            amount = Decimal(0)
        total += amount
        result.prize = min(amounts.PRIZE_MAX, _money(amount, result.name, notes))
    if _whole(total) != _whole(pool):
        notes.append(
            _("The prizes paid (%(paid)s) are not the pool (%(pool)s): imported as paid.")
            % {"paid": _shown(total), "pool": _shown(pool)}
        )


CSV_COLUMNS = (
    "date",
    "event",
    "player",
    "place",
    "buy_in",
    "fee",
    "rebuys",
    "addons",
    "knockouts",
    "prize",
    "paid_in",
    "game_name",
)


@dataclass
class _Seen:
    """What the players' buy-ins tell of the whole night: every moment they record (the
    night's start and end among them), each hitman's share of the bust-outs, and how often
    each (buy-in, fee) opened a player's night."""

    moments: list[Decimal]
    hits: dict[str, Decimal] = field(default_factory=dict)
    firsts: Counter[tuple[int, int]] = field(default_factory=Counter)


def _entry(
    key: str, player: Any, number: int, full_credit: bool, seen: _Seen, notes: list[str]
) -> TDResult | None:
    """The result of one of the save's players (None: registered, never played), without
    its place, prize and knockouts; what its buy-ins tell of the night goes to ``seen``."""
    buyins = [b for b in _list(_get(player, "Buyins")) if isinstance(b, dict)]
    if not buyins:
        return None
    uuid = str(_get(player, "UUID", key) or key)
    result = TDResult(uuid, _name(player) or _("Player %(n)s") % {"n": number})
    addons = [a for a in _list(_get(player, "AddOns")) if isinstance(a, dict)]
    result.rebuys = len(buyins) - 1
    result.addons = len(addons)
    paid = sum((_number(_get(b, "Amount")) for b in buyins + addons), Decimal(0))
    result.paid_in = _money(paid, result.name, notes)
    first = buyins[0]
    seen.firsts[(_whole(_number(_get(first, "Amount")) - _rake(first)), _whole(_rake(first)))] += 1
    for buy in buyins + addons:
        seen.moments.append(_number(_get(buy, "Time")))
        bust = _get(buy, "BustOut")
        seen.moments.append(_number(_get(bust, "Time")))
        hitmen = [str(h) for h in _list(_get(bust, "HitmanUUID")) if h]
        for hitman in hitmen:
            share = Decimal(1) if full_credit else Decimal(1) / len(hitmen)
            seen.hits[hitman] = seen.hits.get(hitman, Decimal(0)) + share
    adjustment = _number(_get(player, "HitsAdjustment"))
    if adjustment:
        seen.hits[uuid] = seen.hits.get(uuid, Decimal(0)) + adjustment
    points = _number(_get(player, "PointsAdjustment"))
    if points:
        notes.append(
            _(
                "%(name)s: TD's points adjustment of %(points)s (the site's points come from the season's formula)."
            )
            % {"name": result.name, "points": _shown(points)}
        )
    return result


def _night_day(start: datetime | None, title: str, moments: list[Decimal]) -> date | None:
    """The night's day: its start's, else a date in its title, else its first buy-in's."""
    if start is not None:
        return timezone.localdate(start)
    day = _title_day(title)
    if day is None:
        first_buy = min((m for m in moments if m > 0), default=Decimal(0))
        moment = _moment(first_buy)
        day = timezone.localdate(moment) if moment is not None else None
    return day


def _knockouts(by_uuid: dict[str, TDResult], hits: dict[str, Decimal], notes: list[str]) -> None:
    """Each result's knockouts: its whole shares of the bust-outs, a note where TD counted
    shares of a bust-out that do not add up to whole ones."""
    for result in by_uuid.values():
        share = hits.get(result.uuid, Decimal(0))
        result.knockouts = max(0, _whole(share))
        if share != result.knockouts and share > 0:
            notes.append(
                _("%(name)s: %(share)s knockouts (shares of bust-outs) counted as %(count)s.")
                % {"name": result.name, "share": _shown(round(share, 2)), "count": result.knockouts}
            )


def td_nights_csv(nights: list[TDNight]) -> str:
    """The nights as the site's results CSV, one row per player, best place first."""
    out = io.StringIO()
    writer = csv_safe.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for night in nights:
        if night.skipped or night.day is None:
            continue
        when = (
            timezone.localtime(night.starts_at).strftime("%Y-%m-%d %H:%M")
            if night.starts_at is not None
            else night.day.isoformat()
        )
        for result in sorted(night.results or [], key=lambda r: (r.place, r.name)):
            writer.writerow(
                [
                    when,
                    night.title,
                    result.name,
                    result.place,
                    night.buy_in,
                    night.fee,
                    result.rebuys,
                    result.addons,
                    result.knockouts,
                    result.prize,
                    result.paid_in,
                    night.game_name,
                ]
            )
    return out.getvalue()


# The levels of a night, kept between the preview and the import (a hidden field of the
# confirmation): at most this many rows a night, this many nights.
LEVELS_MAX_ROWS = 200
LEVELS_MAX_NIGHTS = 2000
LEVEL_AMOUNT_MAX = 10**12


def td_night_key(day: date, title: str) -> str:
    """A night's key among the levels: its day and its title as the CSV names the event."""
    return f"{day.isoformat()}|{name_key(' '.join(title.split()))[0]}"


def td_levels_of(nights: list[TDNight]) -> dict[str, list[dict[str, int | str]]]:
    """The levels of the nights that are imported, by ``td_night_key``."""
    return {
        td_night_key(night.day, night.title): night.levels
        for night in nights
        if not night.skipped and night.day is not None and night.levels
    }


def td_levels_read(text: str) -> dict[str, list[dict[str, int | str]]]:
    """``td_levels_of`` back from JSON, each row checked (kind, whole amounts in bounds);
    raises ``ValueError`` on anything else."""
    data = json.loads(text or "{}")
    if not isinstance(data, dict) or len(data) > LEVELS_MAX_NIGHTS:
        raise ValueError("not the levels of nights")
    out: dict[str, list[dict[str, int | str]]] = {}
    for key, rows in data.items():
        if not isinstance(key, str) or not isinstance(rows, list) or len(rows) > LEVELS_MAX_ROWS:
            raise ValueError("not the levels of a night")
        checked: list[dict[str, int | str]] = []
        for row in rows:
            if not isinstance(row, dict) or row.get("kind") not in ("level", "break"):
                raise ValueError("not a level")
            names = (
                ("minutes",)
                if row["kind"] == "break"
                else ("minutes", "small_blind", "big_blind", "ante")
            )
            values: dict[str, int | str] = {"kind": row["kind"]}
            for name in names:
                value = row.get(name)
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"{name} is not a whole number")
                if not 0 <= value <= LEVEL_AMOUNT_MAX:
                    raise ValueError(f"{name} is out of bounds")
                values[name] = value
            checked.append(values)
        out[key] = checked
    return out
