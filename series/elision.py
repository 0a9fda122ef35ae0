"""A person's name in a sentence: French elides "de" and "que" before a vowel sound.

"Tapis de Ben" but "Tapis d’Ann", "d’Hélène", "d’Yves" (and "de Yann": a y before a vowel
is a consonant). The site cannot know how each name is said, so it follows the spelling: a
vowel, an h before a vowel (most given names start with a mute h), or a y before a
consonant. A sentence that names a person exists twice in the catalogs: the plain message,
and the same message in the context ``ELIDED`` for a name that elides, which French
translates with "d’" and English the same as the plain one:

    text = for_name(
        name,
        _("%(name)s's stack"),
        pgettext("name starting with a vowel sound", "%(name)s's stack"),
    ) % {"name": name}

(the context is written out at each call, where ``makemessages`` reads it). Templates do
the same with the ``elides`` filter of ``series_wording``.

>>> [elides(name) for name in ("ann", "Ben", "Élodie", "Hugo", "Yves", "Yann", "", "42")]
[True, False, True, True, True, False, False, False]
"""

from __future__ import annotations

import unicodedata

ELIDED = "name starting with a vowel sound"
VOWELS = frozenset("aeiouæœ")


def _letters(name: str) -> str:
    """The name's letters in lower case, accents taken off ("Élodie" -> "elodie")."""
    decomposed = unicodedata.normalize("NFD", name.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def elides(name: str) -> bool:
    """Whether French elides the word before ``name`` ("d’Ann", not "de Ann")."""
    letters = _letters(name)
    if not letters:
        return False
    first, second = letters[0], letters[1:2]
    if first in VOWELS:
        return True
    if first == "h":
        return bool(second) and second in VOWELS | {"y"}
    if first == "y":
        return bool(second) and second.isalpha() and second not in VOWELS
    return False


def for_name(name: str, plain: str, elided: str) -> str:
    """``elided`` (the message translated in the context ``ELIDED``) when ``name`` elides,
    else ``plain``."""
    return elided if elides(name) else plain
