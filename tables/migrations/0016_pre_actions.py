from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0015_time_bank"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="pre_action",
            field=models.CharField(
                blank=True,
                choices=[
                    ("check_fold", "Check/Fold"),
                    ("check", "Check"),
                    ("call", "Call"),
                    ("call_any", "Call any"),
                    ("fold", "Fold"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="pre_action_hand",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="pre_action_street",
            field=models.CharField(blank=True, max_length=10),
        ),
        migrations.AddField(
            model_name="seat",
            name="pre_action_to_call",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
