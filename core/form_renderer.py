"""Forms drawn by Jinja2 from Django's own form templates, anything else by Django's engine.

A director's page shows dozens of inputs and selects, and Django draws each input, each
option of a select, each label through a template of its own: most of a form page's time
went there. Django ships every form and widget template for Jinja2 too
(``django/forms/jinja2``), the same HTML, and Jinja2 compiles a template to Python, which
draws it several times faster. A widget whose template exists only for Django's engine
(the admin's own) is drawn by Django's.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist
from django.utils.functional import cached_property


class FormRenderer(BaseRenderer):
    """Django's form templates from Jinja2, falling back to Django's engine (``FORM_RENDERER``)."""

    @cached_property
    def jinja2(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def django(self) -> DjangoTemplates:
        return DjangoTemplates()

    def get_template(self, template_name: str) -> Any:
        try:
            return self.jinja2.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)
