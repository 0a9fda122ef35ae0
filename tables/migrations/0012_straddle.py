from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0011_ante_kind_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="straddle",
            field=models.CharField(
                choices=[
                    ("none", "No straddle"),
                    ("under-the-gun", "Left of the big blind"),
                    ("button", "On the button (Mississippi)"),
                ],
                default="none",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="straddle_next",
            field=models.BooleanField(default=False),
        ),
    ]
