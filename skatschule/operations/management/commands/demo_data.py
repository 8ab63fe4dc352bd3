"""``manage.py demo_data``: demo accounts with practice, graded by the engine.

    manage.py demo_data                 # 5 users (demo1 ... demo5), 40 answers each, teacher "lehrkraft"
    manage.py demo_data --users 50 --answers 200 --password geheim-und-lang --seed 7
    manage.py demo_data --teacher ""    # learners only
    manage.py demo_data --no-play       # without the types graded by play (seconds of engine each)

Besides the learners it makes a demo teacher (``--teacher``, default ``lehrkraft``) with a class
"Demo-Klasse" that all demo learners joined and a published quiz "Demo-Quiz" for it, so that a
newcomer can try the teachers' pages locally without the admin or an invitation.
Users that exist already are left alone, so it can run twice. Answers are real: each
exercise is issued and answered through ``training.services.issuing`` (right answers
computed by the exercise type, wrong ones derived from them), so progress, streaks and the
review queue look like a learner's. Without ``--password`` the accounts cannot log in.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from skatschule.classrooms.services import create_classroom, grant_teacher, join
from skatschule.owners import Owner
from skatschule.quizzes.services.authoring import create_quiz
from skatschule.training.registry import exercise_types
from skatschule.training.services.issuing import AnswerError, issue, question_for, submit

DEMO_TEACHER = "lehrkraft"
DEMO_CLASS = "Demo-Klasse"
DEMO_QUIZ = "Demo-Quiz"
DEMO_QUIZ_POOL = [("augen", 1), ("stich", 1), ("spielwert", 1)]


def wrong_values(kind: Any, question: Any, right: list[str]) -> list[str]:
    """A readable answer that differs from the right one (or [] if none can be built)."""
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    options = [o.value for o in question.options]
    if question.widget == "order":
        return list(reversed(right)) if len(right) > 1 else []
    others = [o for o in options if o not in right]
    if question.widget == "case" and len(right) == 2:
        return [others[0], right[1]] if others else []
    if question.widget == "choice":
        return others[:1]
    return others[:1] if others else right[:-1]


class Command(BaseCommand):
    help = "Legt Demo-Konten mit echten, von der Engine bewerteten Übungen an."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--users", type=int, default=5)
        parser.add_argument("--answers", type=int, default=40, help="answers per user")
        parser.add_argument("--prefix", default="demo")
        parser.add_argument("--password", default="", help="login password (default: none, login disabled)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--teacher", default=DEMO_TEACHER, help="the demo teacher's user name ('' for none)")
        parser.add_argument(
            "--no-play",
            action="store_true",
            help="leave out the types graded by play (each answer costs seconds of engine time)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        types = {
            slug: kind for slug, kind in exercise_types().items() if not (options["no_play"] and kind.graded_by_job)
        }
        kinds = sorted(types)
        made = answered = 0
        User = get_user_model()
        start = timezone.now() - timedelta(days=30)
        for n in range(1, options["users"] + 1):
            name = f"{options['prefix']}{n}"
            if User.objects.filter(username=name).exists():
                continue
            with transaction.atomic():
                user = User.objects.create_user(name, password=options["password"] or None)
                owner = Owner.for_user(user)
                skill = rng.uniform(0.4, 0.95)
                for i in range(options["answers"]):
                    slug = rng.choice(kinds)
                    kind = types[slug]
                    issued = issue(
                        kind=slug, difficulty=rng.randint(1, kind.levels), owner=owner, seed=rng.randrange(2**31)
                    )
                    question = question_for(issued)
                    right = kind.correct_answer(question)
                    values = right if rng.random() < skill else (wrong_values(kind, question, right) or right)
                    when = start + timedelta(minutes=i * 17 + n)
                    type(issued).objects.filter(pk=issued.pk).update(issued_at=when - timedelta(seconds=20))
                    issued.refresh_from_db()
                    try:
                        submit(issued=issued, owner=owner, values=values, now=when)
                    except AnswerError:
                        # a widget wrong_values() does not know: answer right instead
                        submit(issued=issued, owner=owner, values=right, now=when)
                    answered += 1
            made += 1
        self.stdout.write(self.style.SUCCESS(f"demo_data: {made} Konten, {answered} Antworten angelegt."))
        if options["teacher"]:
            learners = [f"{options['prefix']}{n}" for n in range(1, options["users"] + 1)]
            self._teacher(options["teacher"], options["password"], learners)

    def _teacher(self, name: str, password: str, learners: list[str]) -> None:
        """The demo teacher with a class of the demo learners and a published quiz (once)."""
        User = get_user_model()
        if User.objects.filter(username=name).exists():
            return
        with transaction.atomic():
            teacher = User.objects.create_user(name, password=password or None)
            grant_teacher(user=teacher)
            classroom = create_classroom(teacher=teacher, name=DEMO_CLASS)
            for student in User.objects.filter(username__in=learners):
                join(student=student, raw_code=classroom.join_code)
            create_quiz(owner=teacher, classroom=classroom, title=DEMO_QUIZ, pool=DEMO_QUIZ_POOL, item_count=6)
        made = f"demo_data: Lehrkraft {name!r} mit der Klasse {DEMO_CLASS!r} und dem Quiz {DEMO_QUIZ!r}."
        self.stdout.write(self.style.SUCCESS(made))
