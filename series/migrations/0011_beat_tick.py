from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("series", "0010_money_across_nights")]

    operations = [
        # Beat stores when it sent the heartbeat, apart from when a worker ran it; a row that
        # beat writes first has no worker yet.
        migrations.AddField(
            model_name="workerheartbeat",
            name="beat_sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="workerheartbeat",
            name="hostname",
            field=models.CharField(blank=True, max_length=255),
        ),
        migrations.AlterField(
            model_name="workerheartbeat",
            name="seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
