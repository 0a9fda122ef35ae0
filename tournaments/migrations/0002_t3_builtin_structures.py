"""The built-in blind structures every director may copy (``is_template=True``).

A data migration rather than creation on first use: the templates are there from the first
deploy for every page that offers a structure (the tournament settings, the admin, the
editor), and no page has to write while it reads. It is idempotent: a template whose name
is already stored is left alone (a director may have adjusted it in the admin), so running
it again, or after a database was filled by other means, creates only what is missing.
The rows are the pure data of ``tournaments.blind_structures.BUILTIN_TEMPLATES``, written with
the historical models through the same installer the tests use; at this migration a level
names its structure ``structure`` (``blind_structure`` from 0017).
"""

from typing import Any

from django.db import migrations


def install(apps: Any, schema_editor: Any) -> None:
    from tournaments.services.blind_structures import blind_structure_templates_install

    blind_structure_templates_install(
        apps.get_model("tournaments", "BlindStructure"),
        apps.get_model("tournaments", "StructureLevel"),
        level_structure_field="structure",
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
