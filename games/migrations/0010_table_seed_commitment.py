"""Store each table's fairness commitment (``sha256(str(seed))``) in its row.

Tables made before this migration get the commitment of the seed they hold now: for them the stored
value proves nothing about a change of seed made before today (only a hash a player kept does, passed
to ``manage.py check_draws CODE --commitment HEX``).
"""
from __future__ import annotations

import hashlib

from django.db import migrations, models


def fill(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(seed_commitment="").only("pk", "seed").iterator():
        Table.objects.filter(pk=table.pk).update(seed_commitment=hashlib.sha256(str(table.seed).encode()).hexdigest())


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_table_revision"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="seed_commitment",
            field=models.CharField(default="", editable=False, max_length=64),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
