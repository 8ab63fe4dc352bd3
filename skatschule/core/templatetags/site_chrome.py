"""``{% load site_chrome %}``: the parts of ``base.html`` that every page has, made cheap.

- ``{% nav_urls %}`` sets ``home_url``, ``rules_url``, ... (the same variables the
  ``{% url ... as ... %}`` tags used to set) from a per-process table: the URLs do not
  change while the process runs (the key includes the script prefix, the URLconf and the
  language, in case URLs ever get a language prefix). A name that does not resolve gives
  ``""``, as ``{% url ... as ... %}`` does.
- ``{% site_header %}`` renders ``core/site_header.html`` (brand, search, navigation,
  account menu, language and deck switchers). The header is the same for every visitor
  who shares the language, the deck, the logged-in state and the active menu item, apart
  from a few per-request values (CSRF token, current path, search query, user name). It is
  rendered once per process with placeholders for those and the placeholders are filled in
  per request (escaped exactly as the template would escape them). Requests whose header
  cannot be keyed that way (no CSRF token) are rendered normally.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from django import template
from django.template.backends.django import Template as BackendTemplate
from django.template.defaultfilters import urlencode
from django.template.loader import get_template
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from skatschule.core.language import current_lang

register = template.Library()

NAV_URLS: dict[str, str] = {
    "home_url": "home:index",
    "rules_url": "rules:index",
    "glossary_url": "rules:glossary",
    "search_url": "rules:search",
    "lessons_url": "training:lessons",
    "table_url": "table:play",
    "dashboard_url": "training:dashboard",
    "login_url": "accounts:login",
    "logout_url": "accounts:logout",
    "signup_url": "accounts:signup",
    "gallery_url": "cards:gallery",
    "cases_url": "casebook:index",  # set by the header before; child templates may rely on it
}
# URLs that get aria-current in the header (and for logged-in visitors two more)
_MENU = (
    "rules:index",
    "rules:glossary",
    "casebook:index",
    "training:lessons",
    "table:play",
    "training:dashboard",
    "cards:gallery",
)
_MENU_AUTH = ("classrooms:index", "quizzes:index")

_lock = threading.Lock()
_url_tables: dict[tuple[str, Any, str], dict[str, str]] = {}


def _reverse(name: str) -> str:
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


def url_table() -> dict[str, str]:
    """``{variable: url}`` for NAV_URLS plus the menu URLs (``"view:name"`` keys), per process."""
    key = (get_script_prefix(), get_urlconf(), current_lang())
    table = _url_tables.get(key)
    if table is None:
        table = {var: _reverse(name) for var, name in NAV_URLS.items()}
        table.update({name: _reverse(name) for name in (*_MENU, *_MENU_AUTH)})
        with _lock:
            _url_tables[key] = table
    return table


@register.simple_tag(takes_context=True)
def nav_urls(context: template.Context) -> str:
    table = url_table()
    for var in NAV_URLS:
        context[var] = table[var]
    return ""


# Placeholders: letters and digits only, so escaping leaves them unchanged; filled in one
# pass, so a path or query that happens to contain a placeholder is not touched again.
_PLACEHOLDER = re.compile(r"hdrph0(csrf|path|next|query|user)0q8k2")
_SLOTS = {name: f"hdrph0{name}0q8k2" for name in ("csrf", "path", "next", "query", "user")}

HEADER_CACHE_SIZE = 64
_headers: OrderedDict[tuple[Any, ...], str] = OrderedDict()


def clear_header_cache() -> None:
    with _lock:
        _headers.clear()
        _url_tables.clear()


def _render_header(context: template.Context, values: dict[str, Any]) -> SafeString:
    loaded = get_template("core/site_header.html")  # the engine caches the loaded template
    assert isinstance(loaded, BackendTemplate)  # the site has the one Django template engine
    tpl = loaded.template
    with context.push(values):
        return tpl.render(context)


def _values(request: Any, user: Any) -> dict[str, str]:
    """The per-request values of the header, unescaped (the template escapes them)."""
    path = request.get_full_path() if request is not None else ""
    return {
        "header_path": path,
        "header_next": urlencode(path),
        "header_q": request.GET.get("q", "") if request is not None else "",
        "header_username": user.get_username() if user is not None and user.is_authenticated else "",
    }


@register.simple_tag(takes_context=True)
def site_header(context: template.Context) -> SafeString:
    request = context.get("request")
    user = context.get("user")
    token = context.get("csrf_token")
    token = str(token) if token is not None else ""
    if request is None or user is None or not token or token == "NOTPROVIDED":
        return _render_header(context, _values(request, user))
    authenticated = bool(user.is_authenticated)
    table = url_table()
    menu = _MENU + (_MENU_AUTH if authenticated else ())
    active = request.path if any(request.path == table[name] for name in menu) else None
    match = getattr(request, "resolver_match", None)
    on_search = getattr(match, "view_name", None) == "rules:search"
    key = (
        get_script_prefix(),
        get_urlconf(),
        current_lang(),
        context.get("deck"),
        authenticated,
        active,
        on_search,
    )
    with _lock:
        cached = _headers.get(key)
        if cached is not None:
            _headers.move_to_end(key)
    if cached is None:
        cached = str(
            _render_header(
                context,
                {
                    "csrf_token": _SLOTS["csrf"],
                    "header_path": _SLOTS["path"],
                    "header_next": _SLOTS["next"],
                    "header_q": _SLOTS["query"],
                    "header_username": _SLOTS["user"],
                },
            )
        )
        with _lock:
            _headers[key] = cached
            while len(_headers) > HEADER_CACHE_SIZE:
                _headers.popitem(last=False)
    values = _values(request, user)
    filled = {
        "csrf": conditional_escape(token),
        "path": conditional_escape(values["header_path"]),
        "next": conditional_escape(values["header_next"]),
        "query": conditional_escape(values["header_q"]),
        "user": conditional_escape(values["header_username"]),
    }
    return mark_safe(_PLACEHOLDER.sub(lambda m: filled[m.group(1)], cached))
