from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_straddle"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="bomb_pot_ante",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="bomb_pot_every",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="bomb_pot_by_vote",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="table",
            name="bomb_pot_next",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="votes_bomb_pot",
            field=models.BooleanField(default=False),
        ),
    ]
