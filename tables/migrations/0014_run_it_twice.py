from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0013_bomb_pot"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="run_it_twice",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "House option (cash tables): when the players still in are all-in with "
                    "cards to come, they may all agree to deal the rest of the board twice, "
                    "each run for half of every pot."
                ),
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="vote_until",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
    ]
