from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """What Skatschule is, with links to the parts of the site."""
    return render(request, "home/index.html")
