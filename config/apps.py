from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    """The site package as an app only for its ``serve`` command (the embedded runner)."""

    name = "config"
    label = "site"
    verbose_name = _("Site")
