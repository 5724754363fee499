"""Key each table's digital draws by the game's position (an undone draw made again gives the same outcome).

Tables made before this migration were drawn with the log row as key: they keep that scheme (``seq``), so
``manage.py check_draws`` still re-derives every draw they hold. Tables made from now on use ``position``,
with ``draws`` (how many of the app's draws count now) kept beside the state; old tables never read it.
"""
from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_table_seed_commitment"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="draw_keys",
            field=models.CharField(choices=[("position", "by position"), ("seq", "by log row")], default="seq",
                                   editable=False, max_length=10),
        ),
        migrations.AddField(
            model_name="table",
            name="draws",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AlterField(
            model_name="table",
            name="draw_keys",
            field=models.CharField(choices=[("position", "by position"), ("seq", "by log row")], default="position",
                                   editable=False, max_length=10),
        ),
    ]
