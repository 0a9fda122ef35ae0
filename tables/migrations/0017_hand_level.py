from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_pre_actions"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="stakes_level",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="level",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
