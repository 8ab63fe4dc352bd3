"""Exercise types: generators and graders backed by the engine.

A top-level package below the apps: it imports the engine and nothing else of the project
(no Django). ``engine <- exercises <- apps (training, casebook, quizzes) <- views``.

``REGISTRY`` maps each type's slug to its instance, in curriculum order (:data:`CURRICULUM`);
``get(slug)`` looks one up (and raises :class:`AnswerError` for an unknown slug). The types
here register on import; types that need an app's content register themselves from that
app's ``AppConfig.ready()`` with :func:`register` (like python-chess's ``VARIANTS`` list):
``fall`` comes from :mod:`skatschule.casebook.exercise_types.fall`, which reads the casebook.

See :mod:`.base` for the interface and :mod:`.exercise` for the base class every type
subclasses; the types share :mod:`.answers` (reading an answer by widget), :mod:`.grading`
(comparing it with the engine's solution) and :mod:`.helpers` (small texts and facts). Card
orders are the engine's (:mod:`skatschule.engine.sorting`). Every type has three levels.

=============  =====================================================================
slug           widget (answer values)
=============  =====================================================================
augen          number
rangfolge      order (card codes, highest first) or cards (the trumps), by seed
stich          choice: ``vorhand`` / ``mittelhand`` / ``hinterhand``
zugeben        cards (the allowed cards of the hand; options = the hand)
spitzen        choice: ``+2`` (mit 2) ... ``-3`` (ohne 3); "mit 2", "ohne 3", "2" are read too
spielwert      number
reizen_hoehe   number
reizen_ablauf  choice: ``1@20`` (Mittelhand bei 20), ``eingepasst``; or ``0:hoert``,
               ``2:sagt``, ``0:allein`` (whose turn, as what), by seed
spielansage    choice: ``ja`` / ``nein``
abrechnung     number (list entry, negative when lost)
ueberreizt     level 1 multi (``kreuz pik herz karo grand``), levels 2-3 number
null           number (value or list entry), choice (the card that takes the trick,
               by code) or choice ``gewonnen`` / ``verloren``, by seed
kneipe         number (pub rules: Kontra/Re/Bock entry, or a Ramsch entry); variant
seeger         number (one player's Seeger-Fabian total)
fall           (registered by the casebook app) choice (a casebook case's options) or case (the option, then the list
               entry as a number) when the case asks for the score
regelverstoss  level 1 choice ``alleinspieler`` / ``gegenpartei``, levels 2-3 number
               (the declarer's list entry after the referee's ruling)
=============  =====================================================================

The types graded by a job register from the ``graded_by_play`` app: ``druecken`` (widget ``discard``) and
``reizen_gespielt`` (widget ``bid``: ``passen`` or a bid value).
"""

from __future__ import annotations

from .abrechnung import Abrechnung
from .augen import Augen
from .base import AnswerError, Choice, ExerciseType, Feedback, Question, Widget, rng_for
from .hausregel import Hausregel
from .kneipe import Kneipe
from .null import Null
from .rangfolge import Rangfolge
from .regelverstoss import Regelverstoss
from .reizen_ablauf import ReizenAblauf
from .reizen_hoehe import ReizenHoehe
from .seeger import Seeger
from .spielansage import Spielansage
from .spielwert import Spielwert
from .spitzen import Spitzen
from .stich import Stich
from .ueberreizt import Ueberreizt
from .zugeben import Zugeben

__all__ = [
    "REGISTRY",
    "CURRICULUM",
    "register",
    "get",
    "AnswerError",
    "Choice",
    "ExerciseType",
    "Feedback",
    "Question",
    "Widget",
    "rng_for",
]

CURRICULUM: tuple[str, ...] = (
    "augen",
    "rangfolge",
    "stich",
    "zugeben",
    "spitzen",
    "spielwert",
    "reizen_hoehe",
    "reizen_gespielt",
    "reizen_ablauf",
    "spielansage",
    "druecken",
    "abrechnung",
    "ueberreizt",
    "null",
    "kneipe",
    "hausregel",
    "seeger",
    "fall",
    "regelverstoss",
)
"""The order of the curriculum (and of the lesson list). A registered type not named here
comes after these, in the order of registration."""

REGISTRY: dict[str, ExerciseType] = {}
"""Every exercise type by slug, in the order of the curriculum (see :func:`register`)."""


def register(kind: ExerciseType) -> ExerciseType:
    """Add ``kind`` to :data:`REGISTRY` (again: replace it) and keep the curriculum order.

    The dict is changed in place, so whoever holds it sees the new type.
    """
    entries = {slug: t for slug, t in REGISTRY.items() if slug != kind.slug}
    entries[kind.slug] = kind
    rank = {slug: i for i, slug in enumerate(CURRICULUM)}
    ordered = sorted(entries.items(), key=lambda item: rank.get(item[0], len(rank)))
    REGISTRY.clear()
    REGISTRY.update(ordered)
    return kind


for _kind in (
    Augen(),
    Rangfolge(),
    Stich(),
    Zugeben(),
    Spitzen(),
    Spielwert(),
    ReizenHoehe(),
    ReizenAblauf(),
    Spielansage(),
    Abrechnung(),
    Ueberreizt(),
    Null(),
    Kneipe(),
    Hausregel(),
    Seeger(),
    Regelverstoss(),
):
    register(_kind)


def get(slug: str) -> ExerciseType:
    """The exercise type ``slug``; :class:`AnswerError` if there is none."""
    try:
        return REGISTRY[slug]
    except (KeyError, TypeError):
        raise AnswerError(
            f"Unbekannte Übung {slug!r}; es gibt: {', '.join(REGISTRY)}",
            f"Unknown exercise {slug!r}; available: {', '.join(REGISTRY)}",
        ) from None
