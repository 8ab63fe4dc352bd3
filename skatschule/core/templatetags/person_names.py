from django import template

from skatschule.core.people import person_name
from skatschule.core.people import shown_name as _shown_name

register = template.Library()


@register.filter
def shown_name(username: str) -> str:
    """``{{ line.username|shown_name }}``: the name in the visitor's language (deleted accounts)."""
    return _shown_name(str(username))


@register.filter
def person(user: object) -> str:
    """``{{ m.student|person }}``: a user's full name where the LMS sent one, else the username."""
    return person_name(user)  # type: ignore[arg-type]
