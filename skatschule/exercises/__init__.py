"""Exercise types: generators and graders backed by the engine.

``REGISTRY`` maps each type's slug to its instance, in curriculum order; ``get(slug)``
looks one up (and raises :class:`AnswerError` for an unknown slug).

Pure Python (engine only, no Django): see :mod:`.base` for the interface and
:mod:`.helpers` for what the types share. Every type has three levels.

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
fall           choice (a casebook case's options) or case (the option, then the list
               entry as a number) when the case asks for the score
regelverstoss  level 1 choice ``alleinspieler`` / ``gegenpartei``, levels 2-3 number
               (the declarer's list entry after the referee's ruling)
=============  =====================================================================
"""

from __future__ import annotations

from .abrechnung import Abrechnung
from .augen import Augen
from .base import AnswerError, Choice, ExerciseType, Feedback, Question, Widget, rng_for
from .fall import Fall
from .kneipe import Kneipe
from .hausregel import Hausregel
from .null import Null
from .rangfolge import Rangfolge
from .reizen_ablauf import ReizenAblauf
from .regelverstoss import Regelverstoss
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
    "get",
    "AnswerError",
    "Choice",
    "ExerciseType",
    "Feedback",
    "Question",
    "Widget",
    "rng_for",
]

REGISTRY: dict[str, ExerciseType] = {
    t.slug: t
    for t in (
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
        Fall(),
        Regelverstoss(),
    )
}
"""Every exercise type by slug, in the order of the curriculum."""


def get(slug: str) -> ExerciseType:
    """The exercise type ``slug``; :class:`AnswerError` if there is none."""
    try:
        return REGISTRY[slug]
    except (KeyError, TypeError):
        raise AnswerError(
            f"Unbekannte Übung {slug!r}; es gibt: {', '.join(REGISTRY)}",
            f"Unknown exercise {slug!r}; available: {', '.join(REGISTRY)}",
        ) from None
