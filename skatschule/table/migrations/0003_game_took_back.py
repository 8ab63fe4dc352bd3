from django.db import migrations, models


def fill_game(apps, schema_editor):
    """The game type of stored games, read from their declaration move ``["g", game, ...]``."""
    TableGame = apps.get_model("table", "TableGame")
    for row in TableGame.objects.all().only("pk", "moves"):
        game = next((m[1] for m in row.moves or () if isinstance(m, list) and m and m[0] == "g"), "")
        if isinstance(game, str) and game:
            TableGame.objects.filter(pk=row.pk).update(game=game[:10])


class Migration(migrations.Migration):
    dependencies = [("table", "0002_once_per_game")]

    operations = [
        migrations.AddField(
            model_name="tablegame", name="game", field=models.CharField(blank=True, default="", max_length=10)
        ),
        migrations.AddField(model_name="tablegame", name="took_back", field=models.BooleanField(default=False)),
        migrations.RunPython(fill_game, migrations.RunPython.noop),
    ]
