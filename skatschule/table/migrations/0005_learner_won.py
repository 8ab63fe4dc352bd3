"""The learner's side's result of each stored game (``won`` is the declarer's): what "Meine
Spiele" shows and filters by. Filled for the stored games from their ISS record's declarer."""

from typing import Any

from django.db import migrations, models

from skatschule.engine import SkatError
from skatschule.engine.iss import parse_record
from skatschule.engine.scoring import side_won


def fill(apps: Any, schema_editor: Any) -> None:
    TableGame = apps.get_model("table", "TableGame")
    changed = []
    for row in TableGame.objects.exclude(won=None).only("pk", "seat", "won", "iss_record").iterator():
        try:
            declarer = parse_record(row.iss_record).state.declarer
        except SkatError:
            continue
        if declarer is None:
            continue
        row.learner_won = side_won(row.won, declares=declarer == row.seat)
        changed.append(row)
        if len(changed) >= 500:
            TableGame.objects.bulk_update(changed, ["learner_won"])
            changed = []
    TableGame.objects.bulk_update(changed, ["learner_won"])


class Migration(migrations.Migration):
    dependencies = [("table", "0004_game_level")]

    operations = [
        migrations.AddField(model_name="tablegame", name="learner_won", field=models.BooleanField(null=True)),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
