"""The French catalogs are complete and compiled, checked without GNU gettext.

Three ways a translation silently goes missing, each a failing test here:
- a message in the code (Python, templates, the browser's scripts) that the catalog lacks,
  because nobody ran ``make messages`` after adding it;
- a message in the catalog with no French, or marked fuzzy (gettext then shows English);
- a .po edited without ``make messages`` (or ``manage.py compile_catalogs``) rebuilding its
  .mo, which is what Django actually reads.
The messages are read out of the code with Babel the way ``makemessages`` reads them with
xgettext: Python with Django's keywords, templates through Django's own ``templatize``,
scripts with the JavaScript keywords.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from babel.messages.extract import extract
from django.conf import settings
from django.utils.translation import templatize

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
PYTHON_KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
JS_KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
Key = tuple[str, str | None, str]  # (domain, context, msgid)


def _found(domain: str, path: Path, messages: Iterator[tuple]) -> Iterator[tuple[Key, str]]:
    for lineno, message, _comments, context in messages:
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            yield (domain, context or None, msgid), f"{path.relative_to(ROOT)}:{lineno}"


def code_messages() -> dict[Key, str]:
    found: dict[Key, str] = {}
    for package in ("series", "tables", "tournaments"):
        for path in sorted((ROOT / package).rglob("*.py")):
            messages = extract("python", io.BytesIO(path.read_bytes()), keywords=PYTHON_KEYWORDS)
            found.update(_found("django", path, messages))
    for path in sorted((ROOT / "templates").rglob("*.html")):
        # templatize keeps the template's indentation, which Python's tokenizer refuses;
        # the messages are single string literals, so stripping it changes none of them.
        code = "\n".join(
            line.lstrip() for line in templatize(path.read_text(), origin=str(path)).split("\n")
        )
        messages = extract("python", io.BytesIO(code.encode()), keywords=PYTHON_KEYWORDS)
        found.update(_found("django", path, messages))
    for path in sorted((ROOT / "static").rglob("*.js")):
        messages = extract(
            "javascript",
            io.BytesIO(path.read_bytes()),
            keywords=JS_KEYWORDS,
            options={"parse_template_string": True},
        )
        found.update(_found("djangojs", path, messages))
    return found


def catalog(language: str, domain: str) -> polib.POFile:
    path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run `make messages`"
    return polib.pofile(str(path))


def _translations(entries: list[polib.POEntry]) -> dict[tuple[str | None, str], object]:
    return {
        (entry.msgctxt or None, entry.msgid): (
            tuple(sorted(entry.msgstr_plural.items())) if entry.msgid_plural else entry.msgstr
        )
        for entry in entries
        if entry.msgid and not entry.obsolete
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_in_the_catalog(language: str) -> None:
    known = {
        (domain, entry.msgctxt or None, entry.msgid)
        for domain in ("django", "djangojs")
        for entry in catalog(language, domain)
        if not entry.obsolete
    }
    missing = [
        f"{where}: {msgid!r}"
        for key, where in code_messages().items()
        if key not in known
        for msgid in [key[2]]
    ]
    assert not missing, "not in the catalog (run `make messages`):\n" + "\n".join(missing)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_message_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    po = catalog(language, domain)
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} without a translation: {untranslated[:20]}"
    assert not fuzzy, f"{len(fuzzy)} marked fuzzy: {fuzzy[:20]}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_compiled_catalog_matches_its_source(language: str, domain: str) -> None:
    po = catalog(language, domain)
    mo_path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run `make messages`"
    mo = polib.mofile(str(mo_path))
    assert _translations(list(mo)) == _translations(po.translated_entries()), (
        f"{mo_path} is stale: run `make messages` (or `manage.py compile_catalogs`)"
    )


def test_placeholders_survive_translation() -> None:
    """A translation that drops or renames %(name)s breaks the page at run time."""
    import re

    pattern = re.compile(r"%\([a-z_0-9]+\)[sd]|%[sd]")
    broken = []
    for language in LANGUAGES:
        for domain in ("django", "djangojs"):
            for entry in catalog(language, domain).translated_entries():
                if entry.msgid_plural:
                    # The singular may leave the count out ("The leader's points"), the
                    # plural may not; neither may bring a name the English does not have.
                    allowed = set(pattern.findall(entry.msgid + entry.msgid_plural))
                    forms = [set(pattern.findall(t)) for t in entry.msgstr_plural.values()]
                    if forms[-1] != set(pattern.findall(entry.msgid_plural)) or any(
                        form - allowed for form in forms
                    ):
                        broken.append(f"{entry.msgid!r} → {entry.msgstr_plural!r}")
                    continue
                if set(pattern.findall(entry.msgid)) != set(pattern.findall(entry.msgstr)):
                    broken.append(f"{entry.msgid!r} → {entry.msgstr!r}")
    assert not broken, "\n".join(broken)


def test_french_elisions_take_the_typographic_apostrophe() -> None:
    """French pages write "n’est", "l’annulation" with ’, as nearly all the catalog does; a
    straight ' between two letters is a slip that shows beside its neighbours. A ' around a
    word ("'kind'", a field's name in an error for programs) is left alone."""
    import re

    elision = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
    slips = [
        f"{entry.msgid!r} → {text!r}"
        for domain in ("django", "djangojs")
        for entry in catalog("fr", domain).translated_entries()
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if elision.search(text)
    ]
    assert not slips, "\n".join(slips)
