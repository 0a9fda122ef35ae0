"""Cards drawn in HTML the way static/tables/felt.js draws them, for pages without a socket,
in the page's language (the same words as the JavaScript catalog: a French page shows
R, D, V for K, Q, J)."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tables.i18n import hand_summary_words

register = template.Library()

SUITS = {
    "c": ("♣", gettext_lazy("clubs")),
    "d": ("♦", gettext_lazy("diamonds")),
    "h": ("♥", gettext_lazy("hearts")),
    "s": ("♠", gettext_lazy("spades")),
}
# A rank's name, for the card's accessible name ("queen of hearts").
RANKS = {
    "T": "10",
    "J": gettext_lazy("jack"),
    "Q": gettext_lazy("queen"),
    "K": gettext_lazy("king"),
    "A": gettext_lazy("ace"),
}
# A rank as the card's corner shows it.
RANK_LETTERS = {
    "T": "10",
    "J": pgettext_lazy("card rank", "J"),
    "Q": pgettext_lazy("card rank", "Q"),
    "K": pgettext_lazy("card rank", "K"),
    "A": pgettext_lazy("card rank", "A"),
}


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
        return format_html('<span class="pc pc-back" aria-label="{}"></span>', _("face-down card"))
    rank, suit = code[0], code[1]
    symbol, name = SUITS[suit]
    return format_html(
        '<span class="pc suit-{}" aria-label="{}" title="{}">'
        '<span class="pc-rank">{}</span><span class="pc-suit">{}</span></span>',
        suit,
        _("%(rank)s of %(suit)s") % {"rank": RANKS.get(rank, rank), "suit": name},
        code,
        RANK_LETTERS.get(rank, rank),
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
    "folded": pgettext_lazy("hand log", "folds"),
    "checked": pgettext_lazy("hand log", "checks"),
    "called": pgettext_lazy("hand log", "calls"),
    "bet": pgettext_lazy("hand log", "bets"),
    "raised": pgettext_lazy("hand log", "raises"),
    "shown": pgettext_lazy("hand log", "shows"),
    "mucked": pgettext_lazy("hand log", "mucks"),
    "allindeclared": pgettext_lazy("hand log", "is all-in"),
}


@register.filter
def move_verb(action: str) -> str:
    """A replay step's record name ("raised") as the log reads it ("raises")."""
    return str(VERBS.get(action, action))


@register.filter
def hand_summary(hand: Any) -> str:
    """``{{ hand|hand_summary }}``: who won what in a finished hand, in the page's language."""
    return hand_summary_words(hand)
