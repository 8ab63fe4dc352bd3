"""The group whose members are teachers (``classrooms.models.TEACHER_GROUP``)."""

from django.db import migrations

TEACHER_GROUP = "Lehrkräfte"


def create_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=TEACHER_GROUP)


class Migration(migrations.Migration):
    dependencies = [("classrooms", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_group, migrations.RunPython.noop)]
