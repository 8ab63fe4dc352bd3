"""Plain HTML forms (they work without JavaScript) for sheets, games and house rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from skatschule.core.errors import message_in
from skatschule.core.language import current_lang
from skatschule.engine.errors import SkatError
from skatschule.engine.games import TOTAL_POINTS, TRICKS
from skatschule.engine.names import DEFAULT_DECK, game_ref, render
from skatschule.engine.rules import EXTENDED_DOUBLING_LEVELS, ISKO, SWITCHES, RuleSet

from .scoring import (
    HouseGame,
    bid_values,
    is_possible,
    needs_matadors_without_skat,
    null_above_value,
    rules_from,
    score,
    switch_label,
)
from .sheet import checked_stake, house_game

NULL_MATADORS_HELP = _(
    "Auch beim Null über seinem Wert: Er zählt als verlorenes Farb- oder Grandspiel mit diesen Spitzen."
)
ISKO_GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
GAME_CHOICES = [(g, g) for g in ISKO_GAMES] + [("revolution", _("Revolution")), ("saxon", _("Sächsische Spitze"))]


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


def game_choices(deck: str = DEFAULT_DECK) -> list[tuple[str, Any]]:
    """The games named in the reader's deck and language (names.py names them)."""
    lang = current_lang()
    return [(g, render(game_ref(g), lang, deck)) for g in ISKO_GAMES] + GAME_CHOICES[len(ISKO_GAMES) :]


def _switch_choices() -> dict[str, forms.Field]:
    """The switches that are more than on and off, with their choices (each form gets its own)."""
    return {
        "grand_base": forms.TypedChoiceField(
            choices=[(24, "24"), (20, "20")], coerce=int, initial=24, label=_("Grundwert des Grand")
        ),
        "grand_ouvert_base": forms.TypedChoiceField(
            choices=[("", _("wie Grand (ISkO)")), (36, "36"), (30, "30")],
            coerce=int,
            empty_value=None,
            required=False,
            label=_("Grand ouvert"),
        ),
        "hand_overbid": forms.ChoiceField(
            choices=[
                ("", _("möglich (ISkO)")),
                ("hand", _("nicht möglich, Wert ohne Skat")),
                ("skat", _("nicht möglich, Wert mit Skat")),
            ],
            required=False,
            label=_("Überreizen beim Handspiel"),
        ),
        "revolution": forms.TypedChoiceField(
            choices=[("", _("nein")), (1, "1"), (2, "2"), (3, "3")],
            coerce=int,
            empty_value=None,
            required=False,
            label=_("Revolution (Spielweise)"),
        ),
        "bock_reading": forms.ChoiceField(
            choices=[
                ("", _("der Alleinspieler hat verloren")),
                ("defenders_lost", _("die Gegenspieler haben verloren")),
            ],
            required=False,
            label=_("Bockrunde nach „Kontra verloren“: Kontra verloren heißt"),
        ),
    }


class ProfileForm(forms.Form):
    """The house-rule switches (K.7), one field per engine switch (``engine.rules.SWITCHES``, in
    its order); unchecked means ISkO. An on/off switch is a checkbox named as the engine names it
    (in the reader's deck); the others are choices."""

    FIELD_OF = {"doubling_levels": "extended_doublings"}
    """The form field of each engine switch where its name differs (the query strings keep it)."""

    def __init__(self, *args: Any, deck: str = DEFAULT_DECK, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        lang = current_lang()
        choices = _switch_choices()
        for switch in SWITCHES:
            name = self.FIELD_OF.get(switch.field, switch.field)
            if switch.field in choices:
                self.fields[name] = choices[switch.field]
            else:
                self.fields[name] = forms.BooleanField(required=False, label=switch_label(switch.field, lang, deck))

    def switch_fields(self) -> list[forms.BoundField]:
        """The switches' fields in the engine's order (the template lists them)."""
        return [self[self.FIELD_OF.get(switch.field, switch.field)] for switch in SWITCHES]

    def rules(self) -> RuleSet:
        return rules_from(self.profile())

    def profile(self) -> dict[str, Any]:
        """The switches that differ from the ISkO, by the engine's list of switches."""
        d = self.cleaned_data
        out: dict[str, Any] = {}
        for switch in SWITCHES:
            value = d.get(self.FIELD_OF.get(switch.field, switch.field))
            if not value or (switch.field == "grand_base" and value == ISKO.grand_base):
                continue
            out[switch.field] = list(EXTENDED_DOUBLING_LEVELS) if switch.field == "doubling_levels" else value
        return out


class NewSheetForm(ProfileForm):
    player1 = forms.CharField(max_length=30, label=_("Spieler 1"))
    player2 = forms.CharField(max_length=30, label=_("Spieler 2"))
    player3 = forms.CharField(max_length=30, label=_("Spieler 3"))
    player4 = forms.CharField(max_length=30, required=False, label=_("Spieler 4 (optional)"))
    dealer = forms.TypedChoiceField(
        choices=[(0, "1"), (1, "2"), (2, "3"), (3, "4")], coerce=int, initial=0, label=_("Erster Geber (Spieler Nr.)")
    )
    pub = forms.BooleanField(required=False, label=_("Kneipenregeln: Kontra, Re, Bock- und Ramschrunden (K.1–K.4)"))
    cents = forms.CharField(
        max_length=16,
        initial="0",
        label=_("Cent je Punkt"),
        help_text=_("Auch Bruchteile wie 1/4 oder 0,5"),
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )

    def clean_cents(self) -> str:
        """The stake as exact text (``1/4``); a stake that is none stays in the form with its error."""
        try:
            return str(checked_stake(self.cleaned_data["cents"]))
        except SkatError as err:
            raise forms.ValidationError(message_in(err)) from None

    def players(self) -> list[str]:
        return [self.cleaned_data[f"player{i}"] for i in range(1, 5) if self.cleaned_data.get(f"player{i}")]


class GameForm(forms.Form):
    declarer = forms.TypedChoiceField(coerce=int, label=_("Alleinspieler"))
    game = forms.ChoiceField(choices=GAME_CHOICES, label=_("Spiel"))
    hand = forms.BooleanField(required=False, label=_("Hand"))
    ouvert = forms.BooleanField(required=False, label=_("ouvert"))
    schneider_announced = forms.BooleanField(required=False, label=_("Schneider angesagt"))
    schwarz_announced = forms.BooleanField(required=False, label=_("Schwarz angesagt"))
    matadors = forms.IntegerField(
        min_value=-11,
        max_value=11,
        required=False,
        label=_("Spitzen (mit 2 = 2, ohne 3 = -3)"),
        help_text=NULL_MATADORS_HELP,
    )
    matadors_without_skat = forms.IntegerField(
        min_value=-11, max_value=11, required=False, label=_("Spitzen ohne Skat (nur Handspiel ohne Überreizen)")
    )
    bid = forms.IntegerField(min_value=18, max_value=999, initial=18, label=_("Reizwert"))
    points = forms.IntegerField(
        min_value=0, max_value=TOTAL_POINTS, required=False, label=_("Augen des Alleinspielers")
    )
    tricks = forms.IntegerField(min_value=0, max_value=TRICKS, required=False, label=_("Stiche des Alleinspielers"))
    conceded = forms.BooleanField(required=False, label=_("aufgegeben"))
    kontra = forms.BooleanField(required=False, label=_("Kontra"))
    re = forms.BooleanField(required=False, label=_("Re"))
    more = forms.IntegerField(min_value=0, max_value=5, initial=0, required=False, label=_("weitere Stufen nach Re"))
    spitzen = forms.IntegerField(min_value=0, max_value=4, initial=0, required=False, label=_("angesagte Spitzen"))
    spitze_missed = forms.BooleanField(required=False, label=_("Spitze nicht gefallen"))
    rum = forms.BooleanField(required=False, label=_("Rum"))

    def __init__(
        self,
        *args: Any,
        players: list[str],
        deck: str = DEFAULT_DECK,
        rules: RuleSet | None = None,
        pub: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "declarer").choices = list(enumerate(players))
        _choice_field(self, "game").choices = game_choices(deck)
        self.rules, self.pub = rules or RuleSet(), pub

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        if self.errors:
            return d
        null_like = d.get("game") in ("null", "revolution")  # only the tricks decide these
        if not d.get("conceded") and (d.get("tricks") is None or d.get("points") is None and not null_like):
            raise forms.ValidationError(_("Augen und Stiche angeben, oder „aufgegeben“ ankreuzen."))
        try:
            game = house_game(self.entry(), pub=self.pub)
        except SkatError as err:
            raise forms.ValidationError(message_in(err, current_lang())) from None
        check_game(self, game, self.rules)
        return d

    def entry(self) -> dict[str, Any]:
        d = self.cleaned_data
        e: dict[str, Any] = {"kind": "game", "declarer": d["declarer"], "game": d["game"], "bid": d["bid"]}
        for name in ("hand", "ouvert", "schneider_announced", "schwarz_announced", "conceded", "kontra", "re", "rum"):
            e[name] = bool(d.get(name))
        e["matadors"] = d.get("matadors") or 0
        if d.get("matadors_without_skat") is not None:
            e["matadors_without_skat"] = d["matadors_without_skat"]
        e["points"] = d.get("points") if d.get("points") is not None else 0
        e["tricks"] = d.get("tricks") if d.get("tricks") is not None else 0
        e["more"] = d.get("more") or 0
        e["spitzen"] = d.get("spitzen") or 0
        e["spitze_made"] = not d.get("spitze_missed")
        return e

    @staticmethod
    def initial_from(entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        out["spitze_missed"] = entry.get("spitze_made") is False
        return out


class RamschForm(forms.Form):
    augen1 = forms.IntegerField(min_value=0, max_value=TOTAL_POINTS, label=_("Augen Vorhand"))
    augen2 = forms.IntegerField(min_value=0, max_value=TOTAL_POINTS, label=_("Augen Mittelhand"))
    augen3 = forms.IntegerField(min_value=0, max_value=TOTAL_POINTS, label=_("Augen Hinterhand"))
    tricks1 = forms.IntegerField(min_value=0, max_value=TRICKS, label=_("Stiche Vorhand"))
    tricks2 = forms.IntegerField(min_value=0, max_value=TRICKS, label=_("Stiche Mittelhand"))
    tricks3 = forms.IntegerField(min_value=0, max_value=TRICKS, label=_("Stiche Hinterhand"))
    schieben = forms.IntegerField(min_value=0, max_value=3, initial=0, label=_("wie oft geschoben"))
    broken_by = forms.TypedChoiceField(
        choices=[("", _("nein")), (0, _("Vorhand")), (1, _("Mittelhand")), (2, _("Hinterhand"))],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Abgebrochen von (dann Augen und Stiche bis zum Abbruch)"),
    )

    def entry(self) -> dict[str, Any]:
        d = self.cleaned_data
        entry = {
            "kind": "ramsch",
            "augen": [d["augen1"], d["augen2"], d["augen3"]],
            "tricks": [d["tricks1"], d["tricks2"], d["tricks3"]],
            "schieben": d["schieben"],
        }
        if d.get("broken_by") is not None:
            entry["broken_by"] = d["broken_by"]
        return entry


DEFAULT_PROFILE = {"grand_base": "24"}
DEFAULT_EXAMPLE = {"game": "clubs", "matadors": "2", "bid": "18", "points": "70", "tricks": "6"}
"""What the house-rule page shows before anything is chosen: Kreuz mit 2, won with 70 Augen."""


class ExampleForm(forms.Form):
    """The example game on the house-rules page."""

    game = forms.ChoiceField(choices=GAME_CHOICES, initial="clubs", label=_("Spiel"))
    hand = forms.BooleanField(required=False, label=_("Hand"))
    ouvert = forms.BooleanField(required=False, label=_("ouvert"))
    schneider_announced = forms.BooleanField(required=False, label=_("Schneider angesagt"))
    schwarz_announced = forms.BooleanField(required=False, label=_("Schwarz angesagt"))
    matadors = forms.IntegerField(
        min_value=-11,
        max_value=11,
        initial=2,
        label=_("Spitzen"),
        help_text=NULL_MATADORS_HELP,
    )
    matadors_without_skat = forms.IntegerField(
        min_value=-11, max_value=11, required=False, label=_("Spitzen ohne Skat (nur Handspiel ohne Überreizen)")
    )
    bid = forms.IntegerField(min_value=18, max_value=999, initial=18, label=_("Reizwert"))
    points = forms.IntegerField(min_value=0, max_value=TOTAL_POINTS, initial=70, label=_("Augen des Alleinspielers"))
    tricks = forms.IntegerField(min_value=0, max_value=TRICKS, initial=6, label=_("Stiche des Alleinspielers"))
    spitzen = forms.IntegerField(min_value=0, max_value=4, initial=0, required=False, label=_("angesagte Spitzen"))
    rum = forms.BooleanField(required=False, label=_("Rum"))

    def __init__(self, *args: Any, deck: str = DEFAULT_DECK, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "game").choices = game_choices(deck)

    def entry(self) -> dict[str, Any]:
        """The example as a sheet entry (the same reading as an entered game)."""
        d = self.cleaned_data
        e: dict[str, Any] = {"kind": "game", "declarer": 0, "game": d["game"], "bid": d["bid"]}
        for name in ("hand", "ouvert", "schneider_announced", "schwarz_announced", "rum"):
            e[name] = bool(d.get(name))
        e["hand"] = e["hand"] or d["game"] == "revolution"
        e["matadors"] = d.get("matadors") or 0
        if d.get("matadors_without_skat") is not None:
            e["matadors_without_skat"] = d["matadors_without_skat"]
        e["points"], e["tricks"], e["spitzen"] = d["points"], d["tricks"], d.get("spitzen") or 0
        return e

    def check(self, rules: RuleSet) -> None:
        """The same checks as an entered game's, under ``rules`` (errors land on the fields)."""
        if self.errors:
            return
        try:
            game = house_game(self.entry(), pub=False)
        except SkatError as err:
            self.add_error(None, message_in(err, current_lang()))
            return
        check_game(self, game, rules)


def check_game(form: forms.Form, game: HouseGame, rules: RuleSet) -> None:
    """What cannot happen, as errors on the form's fields: a bid that is no game value, a suit or
    Grand game without matadors, a Null above its value without them, Augen that do not fit the
    tricks (or the matadors and Spitzen), a hand game that needs the matadors without the skat."""
    if game.bid not in bid_values(rules):
        form.add_error("bid", _("Kein Reizwert: gereizt werden nur Spielwerte (18, 20, 22, 23, 24, 27, …)."))
    null_like = game.special is not None or game.game is not None and game.game.is_null
    if not null_like and not game.matadors:
        form.add_error("matadors", _("Spitzen angeben: mit 1 = 1, ohne 2 = -2."))
    elif null_above_value(game) and not game.matadors:
        form.add_error(
            "matadors",
            _(
                "Der Null liegt unter dem Reizwert und zählt als verlorenes Farb- oder Grandspiel (ISkO 2.4.4): "
                "gib die Spitzen des Alleinspielers an."
            ),
        )
    elif not is_possible(game):
        form.add_error(
            "points",
            _(
                "So kann kein Spiel ausgehen: Die Augen passen nicht zu den Stichen (ein Stich hat höchstens 33 Augen, "
                "der Skat höchstens 22, zehn Stiche sind alle 120), oder nicht zu den Spitzen."
            ),
        )
    if needs_matadors_without_skat(game, rules):
        form.add_error(
            "matadors_without_skat",
            _("Bei dieser Hausregel zählt das Handspiel ohne Skat: gib die Spitzen ohne Skat an."),
        )
    if not form.errors:
        try:
            score(game, rules)
        except SkatError as err:
            form.add_error(None, message_in(err, current_lang()))


class ChangeForm(forms.Form):
    """A new player takes a seat (K.2.4)."""

    seat = forms.TypedChoiceField(coerce=int, label=_("Platz von"))
    name = forms.CharField(max_length=30, label=_("Neuer Spieler"))

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "seat").choices = list(enumerate(players))

    def entry(self) -> dict[str, Any]:
        return {"kind": "change", "seat": self.cleaned_data["seat"], "name": self.cleaned_data["name"].strip()}
