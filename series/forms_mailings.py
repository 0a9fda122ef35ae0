"""The form of a player's e-mail choices: their address, a checkbox per topic, and the
language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from series.models import NoticeSettings, NoticeTopic


class NoticeSettingsForm(forms.Form):
    """A box per topic; the hosts' alerts only for a director (``host=True``)."""

    address = forms.EmailField(
        label=_("Your e-mail address"),
        required=False,
        max_length=254,
        help_text=_("Empty: the series e-mails you nothing."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    language = forms.ChoiceField(
        label=_("Language of the e-mails"),
        required=False,
        choices=[("", _("Same as the site"))] + list(settings.LANGUAGES),
    )

    def __init__(self, *args: Any, host: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        topics = [topic for topic in NoticeTopic if host or topic != NoticeTopic.HOST]
        self.topics = [topic.value for topic in topics]
        for topic in topics:
            self.fields[topic.value] = forms.BooleanField(label=topic.label, required=False)
        # The address, the checkboxes, then the language.
        self.order_fields(["address", *self.topics, "language"])

    @classmethod
    def initial_of(cls, notice_settings: NoticeSettings, address: str) -> dict[str, object]:
        initial: dict[str, object] = {
            topic: notice_settings.receives(topic) for topic in NoticeTopic.values
        }
        initial["language"] = notice_settings.language
        initial["address"] = address
        return initial

    def chosen_topics(self, kept: NoticeSettings) -> list[str]:
        """The topics ticked; a topic the form does not show (the hosts' alerts for a player
        who is no director) keeps its stored value."""
        chosen = [topic for topic in self.topics if self.cleaned_data.get(topic)]
        hidden = [t for t in NoticeTopic.values if t not in self.topics and kept.receives(t)]
        return chosen + hidden

    def topic_fields(self) -> list[forms.BoundField]:
        return [self[topic] for topic in self.topics]
