from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("table", "0003_game_took_back")]

    operations = [
        migrations.AddField(
            model_name="tablegame",
            name="level",
            field=models.CharField(default="club", max_length=10),
        ),
    ]
