"""The service contract (issue 27): what the services and selectors of the apps may do.

- Neither imports nor raises Django's ``Http404``: the status is the view's to decide; they raise
  ``skatschule.core.notfound.NotFound`` (or return None).
- A public service that writes takes keyword-only arguments, checked here for the apps that
  took positional ones before (training, classrooms, casebook).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "skatschule"


def _service_and_selector_files() -> list[Path]:
    files = []
    for app in sorted(p for p in ROOT.iterdir() if p.is_dir() and p.name not in ("engine", "exercises", "content")):
        files += sorted(app.glob("services*.py")) + sorted(app.glob("selectors*.py"))
        files += sorted((app / "services").glob("*.py")) if (app / "services").is_dir() else []
    return files


def test_there_are_services_and_selectors_to_check() -> None:
    names = {str(p.relative_to(ROOT)) for p in _service_and_selector_files()}
    assert {"classrooms/services.py", "classrooms/selectors.py", "training/selectors.py"} <= names
    assert "training/services/issuing.py" in names


@pytest.mark.parametrize("path", _service_and_selector_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_services_and_selectors_never_speak_http_404(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert "Http404" not in names and "get_object_or_404" not in names


# The write services of the three apps that took positional arguments (each changes the database).
WRITES = {
    "training/services/issuing.py": ["issue", "submit"],
    "training/services/activities.py": ["record_activity"],
    "training/services/review.py": ["record_answer"],
    "training/services/variants.py": ["issued_for_review"],
    "training/services/adoption.py": ["adopt_session"],
    "training/services/progress_summary.py": ["record"],
    "classrooms/services.py": [
        "grant_teacher",
        "redeem_invitation",
        "create_classroom",
        "rotate_code",
        "join",
        "leave",
        "assign_homework",
        "withdraw_homework",
    ],
    "casebook/services.py": ["start_exam", "finish_exam", "answer_question", "answer_case", "record_case_answer"],
    "casebook/exam_history.py": ["start_practice_exam", "adopt_session_exams"],
    "casebook/group_exams.py": ["create_group_exam", "release_review", "sit_group_exam"],
    "weekly/services.py": ["week_set", "create_tournament", "open_deal", "table_for", "record_moves"],
    "studies/services.py": [
        "create_study",
        "save_annotations",
        "grade_waiting",
        "store_grading",
        "share",
        "new_link",
        "delete_study",
        "answer",
        "adopt_session",
    ],
    "studies/selectors.py": [
        "teacher_studies",
        "learner_studies",
        "own_study",
        "study_by_token",
        "board",
        "study_results",
        "table_games",
        "table_game_spot",
    ],
}


@pytest.mark.parametrize("relative", sorted(WRITES))
def test_write_services_take_keyword_only_arguments(relative: str) -> None:
    tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name in WRITES[relative]:
        args = functions[name].args
        assert not args.posonlyargs and not args.args, f"{relative}: {name} takes positional arguments"
        assert args.kwonlyargs, f"{relative}: {name} takes no arguments at all"
