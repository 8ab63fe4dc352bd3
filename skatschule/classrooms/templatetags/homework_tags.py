from typing import Any

from django import template

from skatschule.classrooms.selectors import student_homework
from skatschule.core.language import current_lang

register = template.Library()


@register.inclusion_tag("classrooms/partials/my_homework.html", takes_context=True)
def my_homework(context: template.Context) -> dict[str, Any]:
    """The signed-in student's homework, open and done (for the dashboard)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    lines = student_homework(user, lang=current_lang()) if user is not None else []
    return {"lines": lines, "open": [l for l in lines if not l.done], "done": [l for l in lines if l.done]}
