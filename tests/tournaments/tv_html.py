"""Reading the TV page in tests: the page and its JSON as a screen gets them, and in its
HTML the elements a ``data-`` attribute names, their text and whether they are hidden, with
the standard library's parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse

from tournaments.models import Tournament


def tv_page(client: Client, tournament: Tournament) -> str:
    response = client.get(reverse("tournaments:tv_clock", args=[tournament.tv_token]))
    assert response.status_code == 200
    return response.content.decode()


def tv_json(client: Client, tournament: Tournament) -> dict:  # type: ignore[type-arg]
    return client.get(reverse("tournaments:tv_clock_json", args=[tournament.tv_token])).json()


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""
    # Hidden itself or inside a hidden element.
    hidden: bool = False
    children: list[Element] = field(default_factory=list)

    @property
    def words(self) -> str:
        return " ".join(self.text.split())


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", {})
        self.stack = [self.root]
        self.all: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        parent = self.stack[-1]
        element = Element(tag, dict(attrs), hidden=parent.hidden or "hidden" in dict(attrs))
        parent.children.append(element)
        self.all.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            element.text += data


def parse(html: str) -> list[Element]:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.all


def find(html: str, attribute: str, value: str | None = None) -> list[Element]:
    """Every element with ``attribute`` (equal to ``value`` when given), in page order."""
    return [
        element
        for element in parse(html)
        if attribute in element.attrs and (value is None or element.attrs[attribute] == value)
    ]


def shown(html: str, attribute: str, value: str | None = None) -> list[Element]:
    """As ``find``, without the hidden ones."""
    return [element for element in find(html, attribute, value) if not element.hidden]


def clock_text(html: str, name: str) -> str:
    """The words of the one element ``data-clock=name``."""
    (element,) = find(html, "data-clock", name)
    return element.words
