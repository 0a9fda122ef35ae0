from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("series", "0013_notices")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="season",
            name="standings_public",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Anyone with the link may show the leaderboard on another site, in a frame."
                ),
                verbose_name="public standings",
            ),
        ),
    ]
