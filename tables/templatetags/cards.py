"""Cards drawn in HTML the way static/tables/table.js draws them, for pages without a socket."""

from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()

SUITS = {"c": ("♣", "clubs"), "d": ("♦", "diamonds"), "h": ("♥", "hearts"), "s": ("♠", "spades")}
RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


@register.filter
def card_codes(text: str | list[str] | None) -> list[str]:
    """ "AhKd7c" (or a list already) as ["Ah", "Kd", "7c"]."""
    if not text:
        return []
    if isinstance(text, list | tuple):
        return list(text)
    return [text[i : i + 2] for i in range(0, len(text), 2)]


@register.simple_tag
def card(code: str) -> str:
    if not code or len(code) != 2 or code[1] not in SUITS:
        return format_html('<span class="pc pc-back" aria-label="face-down card"></span>')
    rank, suit = code[0], code[1]
    symbol, name = SUITS[suit]
    return format_html(
        '<span class="pc suit-{}" aria-label="{} of {}" title="{}">'
        '<span class="pc-rank">{}</span><span class="pc-suit">{}</span></span>',
        suit,
        RANKS.get(rank, rank),
        name,
        code,
        "10" if rank == "T" else rank,
        symbol,
    )


@register.simple_tag
def cards(codes: str | list[str] | None) -> str:
    return format_html_join("", "{}", ((card(code),) for code in card_codes(codes)))


@register.filter
def get_item(mapping: dict[object, object] | None, key: object) -> object:
    """``{{ names|get_item:seat }}``: a dict lookup by a variable key."""
    return (mapping or {}).get(key)


VERBS = {
    "folded": "folds",
    "checked": "checks",
    "called": "calls",
    "bet": "bets",
    "raised": "raises",
    "shown": "shows",
    "mucked": "mucks",
    "allindeclared": "is all-in",
}


@register.filter
def move_verb(action: str) -> str:
    """A replay step's record name ("raised") as the log reads it ("raises")."""
    return VERBS.get(action, action)
