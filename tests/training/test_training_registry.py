from __future__ import annotations

import pytest
from django.utils import translation

from skatschule.training.registry import covered_rule_ids, exercises_for_rule


@pytest.mark.usefixtures("fake_training")
def test_exercises_for_rule_with_fakes() -> None:
    with translation.override("de"):
        found = exercises_for_rule("4.1.1")
    assert [(p.kind, p.slug, p.title) for p in found] == [
        ("exercise", "fake_add", "Addieren"),
        ("lesson", "addieren", "Addieren"),
    ]
    assert found[0].url == "/ueben/aufgabe/fake_add/" and found[1].url == "/ueben/lektion/addieren/"
    with translation.override("en"):
        assert exercises_for_rule("4.1.1")[0].title == "Adding"
    assert exercises_for_rule("9.9.9") == []
    assert covered_rule_ids() >= {"4.1.1", "3.2.1", "K.1.1", "1.3.2", "2.3.1"}


def test_real_registry_and_lessons() -> None:
    covered = covered_rule_ids()
    assert {"1.3.2", "3.2.1", "A.2.1", "K.3.1"} <= covered
    with translation.override("de"):
        found = exercises_for_rule("1.3.2")
    kinds = {(p.kind, p.slug) for p in found}
    assert ("lesson", "die-karten") in kinds and ("lesson", "trumpf-und-rangfolge") in kinds
