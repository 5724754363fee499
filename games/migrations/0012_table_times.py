"""Store when each table started and finished, and which play an imported copy copies.

Tables made before this migration get the best times their rows hold: the start is the table's creation, the
finish is when the last log row of a finished (or ended) table was written (the move that ended it, or the
host's end), never the table's ``updated_at``, which later hand-overs and Play again move.
"""
from __future__ import annotations

import django.utils.timezone
from django.db import migrations, models


def fill_times(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Action = apps.get_model("games", "Action")
    for table in Table.objects.all().only("pk", "created_at", "updated_at", "status"):
        table.started_at = table.created_at
        if table.status in ("finished", "ended"):
            last = (Action.objects.filter(table_id=table.pk).exclude(kind__in=("opened", "refused"))
                    .order_by("-seq").values_list("created_at", flat=True).first())
            table.finished_at = last or table.updated_at
        Table.objects.filter(pk=table.pk).update(started_at=table.started_at, finished_at=table.finished_at)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_table_draw_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="started_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="table",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="table",
            name="copy_of",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(fill_times, migrations.RunPython.noop),
    ]
