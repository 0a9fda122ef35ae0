"""A blind level's structure is its ``blind_structure``: ``structure`` alone names the
betting structure (an event's, a table's), as in 0016.

The column is renamed in place, so the rows keep their structure. The unique constraint
follows the new names; a constraint cannot be renamed, so it is dropped before the
rename and made again after it.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_blind_level")]

    operations = [
        migrations.RemoveConstraint(
            model_name="blindlevel", name="structure_level_position_unique"
        ),
        migrations.RenameField(
            model_name="blindlevel", old_name="structure", new_name="blind_structure"
        ),
        migrations.AlterModelOptions(
            name="blindlevel",
            options={
                "ordering": ["blind_structure", "position"],
                "verbose_name": "blind level",
                "verbose_name_plural": "blind levels",
            },
        ),
        migrations.AddConstraint(
            model_name="blindlevel",
            constraint=models.UniqueConstraint(
                fields=("blind_structure", "position"), name="blind_level_position_unique"
            ),
        ),
    ]
