"""Values from a request, read in one place: ids, whole numbers, text, where to go back to.

A view reads its query string and form fields through a Django form or through these
functions, so a bad value is refused with a message in the reader's language, never a 500:
NUL (PostgreSQL refuses it in text), "²" (``str.isdigit()`` is true of it, ``int()`` refuses
it), "1e400", a number beyond its column. Every app may import this module (like
``core.permissions``, it is the bottom layer of the site).

>>> id_or_none("42"), id_or_none("²"), id_or_none("-1"), id_or_none("99999999999999999999")
(42, None, None, None)
>>> whole_number("-30", minimum=-3600, maximum=3600)
-30
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django import forms
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from core import amounts

# PostgreSQL's column ranges (SQLite takes 64 bits in any integer column, PostgreSQL refuses
# a value beyond its column's type with an error).
SMALLINT_MAX = 32_767
INTEGER_MAX = 2_147_483_647
BIGINT_MAX = 9_223_372_036_854_775_807
# Chips and money are stored in integer columns (``PositiveIntegerField``).
AMOUNT_MAX = INTEGER_MAX
COLUMN_MAX = {
    "SmallIntegerField": SMALLINT_MAX,
    "PositiveSmallIntegerField": SMALLINT_MAX,
    "IntegerField": INTEGER_MAX,
    "PositiveIntegerField": INTEGER_MAX,
    "BigIntegerField": BIGINT_MAX,
    "PositiveBigIntegerField": BIGINT_MAX,
}
# A path to go back to, at most: longer is no page of this site.
NEXT_MAX_LENGTH = 2000

# ASCII digits only: "²" and "٣" are digits to ``str.isdigit()`` and ``int()`` alike.
_WHOLE = re.compile(r"[+-]?[0-9]{1,20}")


class BadValue(ValueError):
    """A request value the field does not take; ``message`` says why, translated."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def id_or_none(raw: Any, *, maximum: int = BIGINT_MAX) -> int | None:
    """A row's id from a request value (ASCII digits, 1 to the id column's largest), or None
    for anything else: a missing field, "", "²", "-1", a number no row can have."""
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not _WHOLE.fullmatch(text) or text[0] in "+-":
        return None
    value = int(text)
    return value if 1 <= value <= maximum else None


def whole_number(raw: Any, *, minimum: int, maximum: int) -> int:
    """A whole number between ``minimum`` and ``maximum`` from a request value, or
    ``BadValue`` saying why not."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not _WHOLE.fullmatch(text):
        raise BadValue(_("Enter a whole number."))
    value = int(text)
    if not minimum <= value <= maximum:
        raise BadValue(
            _("Enter a whole number from %(minimum)s to %(maximum)s.")
            % {"minimum": minimum, "maximum": maximum}
        )
    return value


def text(raw: Any, *, max_length: int) -> str:
    """Text from a request value, stripped: no NUL, at most ``max_length`` characters."""
    value = raw.strip() if isinstance(raw, str) else ""
    if "\x00" in value:
        raise BadValue(_("Null characters are not allowed."))
    if len(value) > max_length:
        raise BadValue(
            _("Use at most %(count)s characters.") % {"count": max_length},
        )
    return value


def text_or_none(raw: Any, *, max_length: int) -> str | None:
    """Like ``text``, None for what it refuses (a key looked up that no row can have)."""
    try:
        return text(raw, max_length=max_length)
    except BadValue:
        return None


def next_path(request: HttpRequest, raw: Any) -> str | None:
    """Where a form asks to go back to: a path on this site, or None.

    Only a path ("/series/..."): ``redirect()`` takes a bare word for a URL name, and a
    name that is none is an error, not a redirect.
    """
    target = text_or_none(raw, max_length=NEXT_MAX_LENGTH)
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    return target


def integer_fields_bounded(form: forms.BaseForm, default: int = AMOUNT_MAX) -> None:
    """Give each whole-number field of ``form`` with no upper bound its column's: a model
    form's field that of its model field (or the field's amount bound, ``core.amounts``),
    any other ``default`` (chips and money).

    Django's model forms check a value against the range of the database in use, and
    SQLite's is 64 bits: without this a number that PostgreSQL refuses passes the form.
    """
    model = getattr(getattr(form, "instance", None), "_meta", None)
    for name, field in form.fields.items():
        if not isinstance(field, forms.IntegerField) or field.max_value is not None:
            continue
        maximum = default
        if model is not None:
            try:
                model_field = model.get_field(name)
            except FieldDoesNotExist:
                pass
            else:
                # An amount's own bound (money, chips), said as people read it.
                bound = amounts.bound_of(model_field)
                if bound is not None:
                    amounts.field_bound(field, bound)
                    continue
                maximum = COLUMN_MAX.get(model_field.get_internal_type(), default)
        field.max_value = maximum
        field.validators.append(MaxValueValidator(maximum))
        field.widget.attrs["max"] = maximum


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise json.JSONDecodeError("number out of range", text, 0)
    return value


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise json.JSONDecodeError("number out of range", text, 0)
    return int(text)


def _no_constant(text: str) -> Any:
    raise json.JSONDecodeError("not a number", text, 0)


class _FiniteDecoder(json.JSONDecoder):
    """JSON as PostgreSQL's ``jsonb`` takes it: no NaN or Infinity, and no number that
    Python reads as one ("1e400") or cannot read at all (thousands of digits)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.update(parse_float=_finite, parse_int=_whole, parse_constant=_no_constant)
        super().__init__(**kwargs)


def _has_nul(value: Any) -> bool:
    # A loop, not recursion: the decoder takes nesting almost to Python's recursion limit.
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str) and "\x00" in item:
            return True
        if isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item
    return False


class JSONValueField(forms.JSONField):
    """The admin's JSON box, refusing what the column cannot store: numbers PostgreSQL's
    ``jsonb`` refuses, NUL in text ("\\u0000"), and nothing at all (the columns hold ``[]``
    or ``{}``, never NULL: Django's own field turns an emptied box into NULL)."""

    def __init__(self, **kwargs: Any) -> None:
        if kwargs.get("decoder") is None:
            kwargs["decoder"] = _FiniteDecoder
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        try:
            converted = super().to_python(value)
        except RecursionError:  # "[[[[...": nested deeper than Python reads
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        if _has_nul(converted):
            raise ValidationError(_("Null characters are not allowed."), code="null_characters")
        return converted

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is None:  # an emptied box, or "null"
            raise ValidationError(self.error_messages["required"], code="required")


# For every ModelAdmin (and inline) of a model with JSON columns.
ADMIN_FORMFIELD_OVERRIDES: dict[type[models.Field], dict[str, Any]] = {
    models.JSONField: {"form_class": JSONValueField}
}
# SQLite refuses a LIKE pattern over 50,000 bytes ("pattern too complex"); no name searched
# for is a tenth of this.
ADMIN_SEARCH_MAX_LENGTH = 200


class AdminValues:
    """Mixed into a ``ModelAdmin``: its JSON boxes refuse what the column cannot store, and
    its search reads at most ``ADMIN_SEARCH_MAX_LENGTH`` characters."""

    formfield_overrides = ADMIN_FORMFIELD_OVERRIDES

    def get_search_results(self, request: HttpRequest, queryset: Any, search_term: str) -> Any:
        return super().get_search_results(  # type: ignore[misc]
            request, queryset, search_term[:ADMIN_SEARCH_MAX_LENGTH]
        )
