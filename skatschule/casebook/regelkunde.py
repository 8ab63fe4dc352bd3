"""The "Regelkunde" track (issue 18): cases solved on the case pages (``SolvedCase``),
counted on the learner's dashboard. Reads only."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from .cases import CATEGORIES, load_cases
from .models import SolvedCase


@dataclass(frozen=True)
class CategoryTrack:
    slug: str
    title: str
    solved: int
    total: int


@dataclass(frozen=True)
class Track:
    solved: int
    tried: int
    total: int
    categories: list[CategoryTrack]

    @property
    def percent(self) -> int:
        return round(100 * self.solved / self.total) if self.total else 0


def track(user: User | AnonymousUser, lang: str = "de") -> Track | None:
    """Solved and tried cases of ``user`` (None for anonymous visitors)."""
    if not user.is_authenticated:
        return None
    cases = load_cases()
    known = {case.id: case.category for case in cases}
    rows = SolvedCase.objects.filter(user=user).values_list("case_id", "solved")
    solved_ids = {cid for cid, solved in rows if solved and cid in known}
    tried = sum(1 for cid, solved in rows if not solved and cid in known)
    categories = []
    for category in CATEGORIES:
        ids = [case.id for case in cases if case.category == category.slug]
        if ids:
            categories.append(
                CategoryTrack(category.slug, category.name(lang), sum(1 for i in ids if i in solved_ids), len(ids))
            )
    return Track(solved=len(solved_ids), tried=tried, total=len(cases), categories=categories)
