"""The quiz builder's form, for a new quiz and for editing one. Choices come from the registry
and the lessons at request time.

Editing a quiz someone has started (``locked=True``): the fields in :data:`LOCKED_FIELDS` are
shown disabled with the stored values. The form never relies on that: a browser sends none of
them, so a POST that does (a forged one, or one from a page loaded before the first attempt)
has all of them read as sent and handed to ``authoring.update_quiz``, which refuses any change.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatschule.classrooms.models import Classroom
from skatschule.training.lessons import get_lessons
from skatschule.training.registry import exercise_types

from . import errors
from .levels import level_choices, max_level
from .models import MAX_ATTEMPTS, MAX_ITEMS, MAX_MINUTES, Quiz
from .selectors.teaching import quiz_sources
from .services import authoring

_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

# Fixed once the first attempt exists (authoring.LOCKED_ONCE_STARTED says why).
LOCKED_FIELDS = (
    "classroom",
    "kinds",
    "lessons",
    "rules",
    "item_count",
    "difficulty",
    "variants",
    "partial_credit",
    "redraw",
)
LOCKED_NOTE_ID = "locked-note"


def split_rules(text: str) -> list[str]:
    return [part for part in re.split(r"[\s,;]+", text or "") if part]


def lesson_choices(lang: str) -> list[tuple[str, str]]:
    """The lessons a quiz may draw from, by title."""
    return [(lesson.slug, lesson.title(lang)) for lesson in get_lessons()]


def kind_choices(lang: str) -> list[tuple[str, str]]:
    """The exercise types a quiz may draw from (not those a job grades), by title."""
    return [(slug, kind.title(lang)) for slug, kind in exercise_types().items() if not kind.graded_by_job]


def initial_for(quiz: Quiz) -> dict[str, Any]:
    """The form's values for an existing quiz."""
    sources = quiz_sources(quiz)
    return {
        "title": quiz.title,
        "classroom": quiz.classroom_id,
        "kinds": sources["kinds"],
        "lessons": sources["lessons"],
        "rules": ", ".join(sources["rules"]),
        "item_count": quiz.items.count(),
        "difficulty": quiz.difficulty,
        "variants": quiz.variants,
        "opens_at": quiz.opens_at,
        "closes_at": quiz.closes_at,
        "time_limit_minutes": quiz.time_limit_minutes,
        "max_attempts": quiz.max_attempts,
        "show_answers": quiz.show_answers,
        "partial_credit": quiz.partial_credit,
        "grading_policy": quiz.grading_policy,
        "redraw": False,
    }


class QuizForm(forms.Form):
    title = forms.CharField(label=_("Titel"), max_length=120)
    classroom = forms.ModelChoiceField(label=_("Klasse"), queryset=Classroom.objects.none(), empty_label=None)
    kinds = forms.MultipleChoiceField(label=_("Übungsarten"), required=False, widget=forms.CheckboxSelectMultiple)
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
        label=pgettext_lazy("Quiz", "Aufgaben"),
        choices=Quiz.Variants.choices,
        initial=Quiz.Variants.FIXED,
        widget=forms.RadioSelect,
    )
    opens_at = forms.DateTimeField(label=_("Beginn"), required=False, widget=_DATETIME)
    closes_at = forms.DateTimeField(label=pgettext_lazy("Quiz", "Ende"), required=False, widget=_DATETIME)
    time_limit_minutes = forms.IntegerField(
        label=_("Zeitlimit in Minuten"), required=False, min_value=1, max_value=MAX_MINUTES
    )
    max_attempts = forms.IntegerField(
        label=_("Erlaubte Versuche"),
        min_value=1,
        max_value=MAX_ATTEMPTS,
        initial=1,
        help_text=_(
            "Mehrere Versuche stellen bei zufälligen Varianten jedes Mal neue Fragen. Bei Aufgaben "
            "„Für alle gleich“ wiederholt jeder Versuch dieselben Fragen: dann nur mit „Lösungen nach dem Ende des "
            "Quiz“."
        ),
    )
    show_answers = forms.ChoiceField(
        label=_("Lösungen zeigen"),
        choices=Quiz.ShowAnswers.choices,
        initial=Quiz.ShowAnswers.AFTER_SUBMIT,
        widget=forms.RadioSelect,
    )
    partial_credit = forms.ChoiceField(
        label=_("Teilpunkte"),
        choices=Quiz.PartialCredit.choices,
        initial=Quiz.PartialCredit.ALL_OR_NOTHING,
        widget=forms.RadioSelect,
        required=False,
    )
    grading_policy = forms.ChoiceField(
        label=_("Bewertung bei mehreren Versuchen"),
        choices=Quiz.GradingPolicy.choices,
        initial=Quiz.GradingPolicy.HIGHEST,
        widget=forms.RadioSelect,
        required=False,
    )
    redraw = forms.BooleanField(
        label=_("Neue Aufgaben ziehen"),
        required=False,
        help_text=_("Zieht die Aufgaben aus derselben Auswahl neu: andere Reihenfolge, andere Varianten."),
    )

    def __init__(
        self,
        *args: Any,
        teacher: Any = None,
        lang: str = "de",
        quiz: Quiz | None = None,
        locked: bool = False,
        **kwargs: Any,
    ) -> None:
        if quiz is not None:
            kwargs["initial"] = {**initial_for(quiz), **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[Classroom]", self.fields["classroom"]).queryset = Classroom.objects.filter(
            teacher=teacher
        )
        cast(forms.ChoiceField, self.fields["kinds"]).choices = kind_choices(lang)
        cast(forms.ChoiceField, self.fields["lessons"]).choices = lesson_choices(lang)
        cast(forms.ChoiceField, self.fields["difficulty"]).choices = level_choices(max_level())
        self.pool: list[tuple[str, int]] = []
        self.lang = lang
        self.quiz = quiz
        self.locked = quiz is not None and locked
        self.sent_locked: dict[str, Any] = {}
        """What a POST sent for the locked fields (empty if it sent none of them)."""
        if quiz is None:
            del self.fields["redraw"]  # a new quiz draws its items anyway
        if self.locked:
            for name in LOCKED_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].widget.attrs["aria-describedby"] = LOCKED_NOTE_ID

    def clean_rules(self) -> list[str]:
        return split_rules(self.cleaned_data.get("rules") or "")

    def clean_partial_credit(self) -> str:
        """Not sent (an older page, a script): the stored rule or all or nothing."""
        value: str = self.cleaned_data.get("partial_credit") or ""
        return value or getattr(self.quiz, "partial_credit", Quiz.PartialCredit.ALL_OR_NOTHING)

    def clean_grading_policy(self) -> str:
        value: str = self.cleaned_data.get("grading_policy") or ""
        return value or getattr(self.quiz, "grading_policy", Quiz.GradingPolicy.HIGHEST)

    def clean_opens_at(self) -> datetime | None:
        return self._stored_if_same_minute("opens_at")

    def clean_closes_at(self) -> datetime | None:
        return self._stored_if_same_minute("closes_at")

    def _stored_if_same_minute(self, name: str) -> datetime | None:
        """The widget shows minutes: a value in the stored time's minute means "unchanged"."""
        value: datetime | None = self.cleaned_data.get(name)
        stored: datetime | None = getattr(self.quiz, name) if self.quiz is not None else None
        if value is not None and stored is not None and stored.replace(second=0, microsecond=0) == value:
            return stored
        return value

    def _read_sent_locked(self) -> None:
        """Read the locked fields as sent, if the POST has any of them (a browser sends none)."""
        if not any(self.add_prefix(name) in self.data for name in LOCKED_FIELDS):
            return
        for name in LOCKED_FIELDS:
            field = self.fields[name]
            raw = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            try:
                value = field.clean(raw)
            except forms.ValidationError as exc:
                self.add_error(name, exc)
                continue
            self.sent_locked[name] = split_rules(value) if name == "rules" else value

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or self.cleaned_data
        if self.locked:
            self._read_sent_locked()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("Das Ende muss nach dem Beginn liegen."))
        if data.get("show_answers") == Quiz.ShowAnswers.AFTER_CLOSE and not closes:
            self.add_error("closes_at", _("Für „Lösungen nach dem Ende“ braucht das Quiz ein Ende."))
        variants = self.sent_locked.get("variants") or data.get("variants") or getattr(self.quiz, "variants", None)
        if variants and data.get("max_attempts") and data.get("show_answers"):
            try:
                authoring.check_attempt_rule(
                    variants=variants, max_attempts=data["max_attempts"], show_answers=data["show_answers"]
                )
            except errors.QuizError as exc:
                self.add_error("max_attempts", exc.message(self.lang))
        if not self.errors and not self.locked:
            kinds, lessons, rules = data.get("kinds") or [], data.get("lessons") or [], data.get("rules") or []
            if not (kinds or lessons or rules):
                raise forms.ValidationError(_("Bitte wähle Übungsarten, Lektionen oder Regelnummern."))
            try:
                self.pool = authoring.build_pool(
                    kinds=kinds, lessons=lessons, rules=rules, difficulty=data.get("difficulty") or 1
                )
            except errors.QuizError as exc:
                raise forms.ValidationError(exc.message(self.lang)) from None
            if not self.pool:
                raise forms.ValidationError(_("Zu dieser Auswahl gibt es keine Übungen."))
        return data

    def changes(self) -> authoring.QuizChanges:
        """The cleaned values as the :class:`~.services.authoring.QuizChanges` of an edit.

        Locked fields carry what the POST sent for them, else their stored values; the service
        compares them with the quiz and refuses a difference once someone has started.
        """
        data = {**self.cleaned_data, **self.sent_locked}
        # every field of QuizChanges is a form field of the same name, except the redraw flag
        names = [f.name for f in dataclasses.fields(authoring.QuizChanges) if f.name != "redraw"]
        values: dict[str, Any] = {name: data.get(name) for name in names}
        return authoring.QuizChanges(**values, redraw=bool(data.get("redraw")))
