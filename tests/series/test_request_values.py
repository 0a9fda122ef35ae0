"""Request values read in one place (core.request_values): ids, numbers, text, where to
go back to, the bounds of whole-number fields, the admin's JSON boxes."""

import doctest

import pytest
from django import forms
from django.test import RequestFactory

from core import request_values
from core.request_values import (
    AMOUNT_MAX,
    INTEGER_MAX,
    SMALLINT_MAX,
    BadValue,
    JSONValueField,
    id_or_none,
    integer_fields_bounded,
    next_path,
    text,
    whole_number,
)
from series.forms_scoring import ScoringForm
from series.models import Season


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(request_values).failed == 0


@pytest.mark.parametrize(
    "raw", ["", " ", "²", "٣", "-1", "0", "+5", "1e3", "1_000", "\x00", "9" * 20, None, 7]
)
def test_an_id_is_ascii_digits_within_bigint(raw: object) -> None:
    # "²".isdigit() and "٣".isdigit() are true, and int("٣") is 3: neither is an id here.
    assert id_or_none(raw) is None


def test_an_id_is_read_with_its_spaces_trimmed() -> None:
    assert id_or_none(" 42 ") == 42
    assert id_or_none("9223372036854775807") == 2**63 - 1
    assert id_or_none("9223372036854775808") is None


def test_a_whole_number_says_why_not_in_the_readers_words() -> None:
    assert whole_number("-30", minimum=-60, maximum=60) == -30
    with pytest.raises(BadValue, match="Enter a whole number."):
        whole_number("1e400", minimum=0, maximum=10)
    with pytest.raises(BadValue, match="from 0 to 10"):
        whole_number("99999999999999999999", minimum=0, maximum=10)


def test_text_refuses_nul_and_length() -> None:
    assert text("  Ann  ", max_length=10) == "Ann"
    with pytest.raises(BadValue, match="Null characters"):
        text("A\x00nn", max_length=10)
    with pytest.raises(BadValue, match="at most 3 characters"):
        text("Anne", max_length=3)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/series/", "/series/"),
        ("²", None),  # redirect("²") would look for a URL named "²"
        ("//evil.example/", None),
        ("https://evil.example/", None),
        ("/a\x00b", None),
        ("/" + "x" * 5000, None),
        (None, None),
    ],
)
def test_next_is_a_path_on_this_site(raw: object, expected: str | None) -> None:
    request = RequestFactory().post("/")
    assert next_path(request, raw) == expected


@pytest.mark.django_db
def test_whole_number_fields_get_their_columns_bound() -> None:
    form = ScoringForm(instance=Season(name="S", starts_on="2026-01-01", ends_on="2026-12-31"))
    integer_fields_bounded(form)
    assert form.fields["best_of"].max_value == SMALLINT_MAX  # PositiveSmallIntegerField

    class Plain(forms.Form):
        chips = forms.IntegerField()
        seats = forms.IntegerField(max_value=9)

    plain = Plain({"chips": str(INTEGER_MAX + 1), "seats": "9"})
    integer_fields_bounded(plain)
    assert plain.fields["chips"].max_value == AMOUNT_MAX
    assert plain.fields["seats"].max_value == 9
    assert not plain.is_valid() and "chips" in plain.errors


@pytest.mark.parametrize(
    "raw",
    ["", "null", "1e400", "[1, NaN]", "Infinity", '["a\\u0000"]', "1" * 5000, "[" * 100_000],
)
def test_the_admins_json_box_refuses_what_the_column_cannot_store(raw: str) -> None:
    with pytest.raises(forms.ValidationError):
        JSONValueField().clean(raw)


def test_the_admins_json_box_takes_json() -> None:
    assert JSONValueField().clean("[25, 100, 0.5]") == [25, 100, 0.5]
    assert JSONValueField(required=False).clean("[]") == []
