"""The table's forms: what a POST or a query may say, read once (views never read request.POST)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from skatschule.engine.bots import BotLevel
from skatschule.engine.numbers import plain_number

ACTIONS = ("bid", "hold", "pass", "pickup", "discard", "declare", "card", "hint", "new", "takeback")


@dataclass(frozen=True)
class Move:
    action: str
    value: str
    cards: list[str]
    flags: set[str]
    confirm: bool
    level: BotLevel = BotLevel.CLUB


LEVELS = [
    (BotLevel.BEGINNER.value, _("Anfänger")),
    (BotLevel.CLUB.value, _("Vereinsspieler")),
    (BotLevel.STRONG.value, _("Stark")),
]
"""The bots' levels a new game may choose, weakest first (the values are BotLevel's stable ids)."""


def _codes(form: forms.Form, name: str, most: int, width: int = 3) -> list[str]:
    """Up to ``most`` values of the list field ``name``, each cut to ``width`` characters."""
    data = form.data
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
    return [str(v)[:width] for v in values][:most]


class MoveForm(forms.Form):
    """One move at the table (``action``), a bid as ``bid:18`` or ``action=bid&value=18``."""

    action = forms.CharField(max_length=16)
    value = forms.CharField(max_length=10, required=False)
    ouvert = forms.BooleanField(required=False)
    schneider = forms.BooleanField(required=False)
    schwarz = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)
    level = forms.ChoiceField(choices=LEVELS, required=False)
    """The computer players' level of a new game (default: club)."""

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        action = str(data.get("action", ""))
        if action.startswith("bid:"):
            action, data["value"] = "bid", action[4:]
        if action not in ACTIONS:
            raise forms.ValidationError("unknown action")
        data["action"] = action
        return data

    def move(self) -> Move:
        data = self.cleaned_data
        return Move(
            action=data["action"],
            value=data.get("value") or "",
            cards=_codes(self, "cards", 3),
            flags={f for f in ("ouvert", "schneider", "schwarz") if data.get(f)},
            confirm=bool(data.get("confirm")),
            level=BotLevel(data.get("level") or BotLevel.CLUB.value),
        )


class AgainForm(forms.Form):
    """ "Dasselbe Blatt noch einmal" (no ``schritt``) or "Ab hier weiterspielen" (the card
    ``schritt`` of the finished game); ``confirm`` when a running game would be given up."""

    schritt = forms.IntegerField(min_value=0, max_value=32, required=False)
    confirm = forms.BooleanField(required=False)


class GamesFilter(forms.Form):
    """ "Meine Spiele": by won or lost and by game (bad values are ignored: a filter is a view)."""

    ergebnis = forms.ChoiceField(choices=[("", ""), ("gewonnen", ""), ("verloren", "")], required=False)
    spiel = forms.ChoiceField(
        choices=[("", "")] + [(g, "") for g in ("clubs", "spades", "hearts", "diamonds", "grand", "null")],
        required=False,
    )

    fehler = forms.ChoiceField(choices=[("", ""), ("mit", ""), ("ohne", "")], required=False)
    """Games with mistakes (or blunders) by the analysis, or analysed games without any."""

    def filters(self) -> tuple[bool | None, str]:
        if not self.is_valid():
            return None, ""
        result = self.cleaned_data.get("ergebnis") or ""
        return {"gewonnen": True, "verloren": False}.get(result), self.cleaned_data.get("spiel") or ""

    def mistakes(self) -> bool | None:
        """Only games with mistakes (True), only analysed games without (False), or all (None)."""
        if not self.is_valid():
            return None
        return {"mit": True, "ohne": False}.get(self.cleaned_data.get("fehler") or "")

    def query(self) -> str:
        """The filter as a query string (``ergebnis=gewonnen&spiel=grand``, '' for none), for the
        links from "Meine Spiele" to a game and back: only the known values, read by this form,
        never the request's own text (an unknown value or parameter is dropped)."""
        if not self.is_valid():
            return ""
        chosen = {name: self.cleaned_data.get(name) or "" for name in ("ergebnis", "spiel", "fehler")}
        return urlencode({name: value for name, value in chosen.items() if value})


def number(value: object, default: int = 0) -> int:
    """A step, game or seat number from a query or form (``default`` when it is none)."""
    found = plain_number(str(value)[:6] if value is not None else "", max_digits=4)
    return default if found is None else found


class IssPasteForm(forms.Form):
    records = forms.CharField(max_length=200_000, strip=False)


class IssExerciseForm(forms.Form):
    exercise = forms.ChoiceField(choices=[(k, k) for k in ("legal", "stich", "augen", "liste")])

    def answer(self) -> list[str]:
        kind = self.cleaned_data["exercise"]
        return _codes(self, "cards" if kind == "legal" else "antwort", 10, 12)


class OuvertForm(forms.Form):
    game = forms.ChoiceField(choices=[("null", "null"), ("grand", "grand")], required=False)

    def chosen(self) -> tuple[str, list[str], list[str]]:
        game = (self.cleaned_data.get("game") if self.is_valid() else "") or "null"
        return game, _codes(self, "cards", 12), _codes(self, "skat", 3)
