from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_entry_out_hand_for_hand_label"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamentaction",
            name="once_token",
            field=models.CharField(
                blank=True, default="", editable=False, max_length=64, verbose_name="form token"
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentaction",
            constraint=models.UniqueConstraint(
                condition=~models.Q(once_token=""),
                fields=("tournament", "once_token"),
                name="tournament_action_once_token",
            ),
        ),
    ]
