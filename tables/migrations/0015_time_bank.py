from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0014_run_it_twice"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="time_bank_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="time_bank_refill_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="time_bank_cap_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="table",
            name="time_bank_level",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="time_bank_ms",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="time_bank_level",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
