"""A tournament's own copy of its levels is ``own_blind_structure``: "structure" alone names
the betting structure (an event's, a table's), as in 0016 and 0017. A rename: the values
stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0023_level_resumed_after_a_break")]

    operations = [
        migrations.RenameField(
            model_name="tournament", old_name="own_structure", new_name="own_blind_structure"
        ),
    ]
