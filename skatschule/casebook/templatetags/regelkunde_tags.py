from typing import Any

from django import template

from skatschule.casebook.regelkunde import track
from skatschule.core.language import current_lang

register = template.Library()


@register.inclusion_tag("casebook/partials/regelkunde_track.html", takes_context=True)
def regelkunde_track(context: template.Context) -> dict[str, Any]:
    """The "Regelkunde" track for the dashboard: cases solved on the case pages."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"track": track(user, current_lang()) if user is not None else None}
