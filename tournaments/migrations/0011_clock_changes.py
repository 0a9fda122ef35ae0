from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_deal_answer_time")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="hand_for_hand_done",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.AddField(
            model_name="tournament",
            name="own_structure",
            field=models.BooleanField(default=False, verbose_name="own copy of the levels"),
        ),
    ]
