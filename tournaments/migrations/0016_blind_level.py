"""A blind structure's row is a BlindLevel: "structure" alone names the betting structure.

The table and its content type follow the model (Django renames both); the permissions that
Django made for the old name are renamed too, so the Directors group keeps them rather than
holding stale ones beside new, ungranted ones.
"""

from django.db import migrations

ACTIONS = ("add", "change", "delete", "view")


def _rename_permissions(apps, schema_editor, old, new, old_words, new_words):
    Permission = apps.get_model("auth", "Permission")
    db = schema_editor.connection.alias
    for action in ACTIONS:
        Permission.objects.using(db).filter(
            content_type__app_label="tournaments", codename=f"{action}_{old}"
        ).update(codename=f"{action}_{new}", name=f"Can {action} {new_words}")
        Permission.objects.using(db).filter(
            content_type__app_label="tournaments", name=f"Can {action} {old_words}"
        ).update(name=f"Can {action} {new_words}")


def forward(apps, schema_editor):
    _rename_permissions(
        apps, schema_editor, "structurelevel", "blindlevel", "structure level", "blind level"
    )


def backward(apps, schema_editor):
    _rename_permissions(
        apps, schema_editor, "blindlevel", "structurelevel", "blind level", "structure level"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0015_time_bank"),
    ]

    operations = [
        migrations.RenameModel(old_name="StructureLevel", new_name="BlindLevel"),
        migrations.AlterModelOptions(
            name="blindlevel",
            options={
                "ordering": ["structure", "position"],
                "verbose_name": "blind level",
                "verbose_name_plural": "blind levels",
            },
        ),
        migrations.RunPython(forward, backward),
    ]
