"""The quiz builder's form. Choices come from the registry and the lessons at request time."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from skatschule.classrooms.models import Classroom

from . import services
from .models import MAX_ATTEMPTS, MAX_ITEMS, MAX_MINUTES, Quiz

_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class QuizForm(forms.Form):
    title = forms.CharField(label=_("Titel"), max_length=120)
    classroom = forms.ModelChoiceField(label=_("Klasse"), queryset=Classroom.objects.none(), empty_label=None)
    kinds = forms.MultipleChoiceField(
        label=_("Übungsarten"), required=False, widget=forms.CheckboxSelectMultiple
    )
    lessons = forms.MultipleChoiceField(label=_("Lektionen"), required=False, widget=forms.CheckboxSelectMultiple)
    rules = forms.CharField(
        label=_("Regelnummern"),
        required=False,
        max_length=200,
        help_text=_("Durch Kommas getrennt, zum Beispiel: 3.2.4, 4.1.2"),
    )
    item_count = forms.IntegerField(label=_("Anzahl der Aufgaben"), min_value=1, max_value=MAX_ITEMS, initial=5)
    difficulty = forms.TypedChoiceField(label=_("Schwierigkeit"), coerce=int, initial=1)
    variants = forms.ChoiceField(
        label=_("Aufgaben"), choices=Quiz.Variants.choices, initial=Quiz.Variants.FIXED, widget=forms.RadioSelect
    )
    opens_at = forms.DateTimeField(label=_("Beginn"), required=False, widget=_DATETIME)
    closes_at = forms.DateTimeField(label=_("Ende"), required=False, widget=_DATETIME)
    time_limit_minutes = forms.IntegerField(
        label=_("Zeitlimit in Minuten"), required=False, min_value=1, max_value=MAX_MINUTES
    )
    max_attempts = forms.IntegerField(label=_("Erlaubte Versuche"), min_value=1, max_value=MAX_ATTEMPTS, initial=1)
    show_answers = forms.ChoiceField(
        label=_("Lösungen zeigen"),
        choices=Quiz.ShowAnswers.choices,
        initial=Quiz.ShowAnswers.AFTER_SUBMIT,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, teacher=None, lang: str = "de", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["classroom"].queryset = Classroom.objects.filter(teacher=teacher)
        self.fields["kinds"].choices = services.kind_choices(lang)
        self.fields["lessons"].choices = services.lesson_choices(lang)
        self.fields["difficulty"].choices = [(n, str(n)) for n in range(1, services.max_level() + 1)]
        self.pool: list[tuple[str, int]] = []
        self.lang = lang

    def clean_rules(self) -> list[str]:
        text = self.cleaned_data.get("rules") or ""
        return [part for part in re.split(r"[\s,;]+", text) if part]

    def clean(self):
        data = super().clean()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("Das Ende muss nach dem Beginn liegen."))
        if data.get("show_answers") == Quiz.ShowAnswers.AFTER_CLOSE and not closes:
            self.add_error("closes_at", _("Für „Lösungen nach dem Ende“ braucht das Quiz ein Ende."))
        if not self.errors:
            kinds, lessons, rules = data.get("kinds") or [], data.get("lessons") or [], data.get("rules") or []
            if not (kinds or lessons or rules):
                raise forms.ValidationError(_("Bitte wähle Übungsarten, Lektionen oder Regelnummern."))
            try:
                self.pool = services.build_pool(kinds, lessons, rules, data.get("difficulty") or 1)
            except services.QuizError as exc:
                raise forms.ValidationError(exc.message(self.lang)) from None
            if not self.pool:
                raise forms.ValidationError(_("Zu dieser Auswahl gibt es keine Übungen."))
        return data
