from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # This app's permissions exist only after its own post_migrate, which may come after
        # the series app's: fill the Directors group in again then.
        post_migrate.connect(_ensure_directors_group, sender=self)
        # Directors manage the blind structures, tournaments, entries and tables in the admin.
        from series.services import director_models_register

        director_models_register(
            *(
                self.get_model(name)._meta.label_lower
                for name in (
                    "BlindStructure",
                    "BlindLevel",
                    "Tournament",
                    "Entry",
                    "TournamentTable",
                )
            )
        )
        # The series' event pages show the tournament's parts through this provider.
        from series.event_sections import register
        from tournaments.event_section import provider

        register(provider)
        # A new night's form sets its tournament up in the same step.
        from series.event_sections import form_part_register
        from tournaments.event_form_part import part

        form_part_register("tournament", part)
        # A night imported from The Tournament Director keeps its levels as a blind structure.
        from series.event_sections import levels_keeper_register
        from tournaments.imported_levels import td_levels_keep

        levels_keeper_register(td_levels_keep)
        # The installable site keeps the TV clock and a player's night page offline.
        from series.offline_pages import offline_pages_register
        from tournaments.offline_pages import PAGES

        offline_pages_register(PAGES)
        # A live table of an online tournament shows the player's offers and the deal.
        from tables.services import table_panels_register
        from tournaments.player_panel import provider as table_panels

        table_panels_register(table_panels)
        # The clock's tasks listen for every stored clock (tournaments.signals.clock_stored).
        from tournaments import tasks  # noqa: F401

        # Online play listens to the live tables' hand_ended and to the clock and finish;
        # the start's Undo is registered where the start is.
        from tournaments.services import lifecycle, online  # noqa: F401


def _ensure_directors_group(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    from series.services import directors_group_ensure

    directors_group_ensure(using=using)
