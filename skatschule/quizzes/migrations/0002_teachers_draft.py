"""Quizzes get a publication time; an empty one is a draft. Quizzes that exist are published."""

from django.db import migrations, models
from django.db.models import F


def publish_existing(apps, schema_editor):
    Quiz = apps.get_model("quizzes", "Quiz")
    Quiz.objects.filter(published_at__isnull=True).update(published_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [("quizzes", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="quiz",
            name="published_at",
            field=models.DateTimeField(
                blank=True,
                help_text="empty: a draft only the teacher sees (quizzes.publishing)",
                null=True,
                verbose_name="Veröffentlicht ab",
            ),
        ),
        migrations.RunPython(publish_existing, migrations.RunPython.noop),
    ]
