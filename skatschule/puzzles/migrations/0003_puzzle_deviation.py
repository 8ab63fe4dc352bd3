"""A puzzle's deviation starts at 120, not 350 (engine/glicko2.py PUZZLE_DEVIATION).

Unplayed puzzles take the new start; a puzzle already played keeps what its attempts gave it.
"""

from typing import Any

from django.db import migrations, models

OLD = 350.0
NEW = 120.0  # engine.glicko2.PUZZLE_DEVIATION when this was written (a migration does not follow later changes)


def forwards(apps: Any, schema_editor: Any) -> None:
    apps.get_model("puzzles", "Puzzle").objects.filter(plays=0, deviation=OLD).update(deviation=NEW)


def backwards(apps: Any, schema_editor: Any) -> None:
    apps.get_model("puzzles", "Puzzle").objects.filter(plays=0, deviation=NEW).update(deviation=OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0002_record_candidate"),
    ]

    operations = [
        migrations.AlterField(
            model_name="puzzle",
            name="deviation",
            field=models.FloatField(
                default=120.0, help_text="starts low: the rating is the engine's estimate (engine/glicko2.py)"
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
