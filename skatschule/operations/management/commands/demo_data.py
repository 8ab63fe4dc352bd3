"""``manage.py demo_data``: demo accounts with practice, graded by the engine.

    manage.py demo_data                 # 5 users (demo1 ... demo5), 40 answers each
    manage.py demo_data --users 50 --answers 200 --password geheim-und-lang --seed 7

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

from skatschule.owners import Owner
from skatschule.training.registry import exercise_types
from skatschule.training.services.issuing import AnswerError, issue, question_for, submit


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

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        types = exercise_types()
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
                    issued = issue(slug, rng.randint(1, kind.levels), None, owner, seed=rng.randrange(2**31))
                    question = question_for(issued)
                    right = kind.correct_answer(question)
                    values = right if rng.random() < skill else (wrong_values(kind, question, right) or right)
                    when = start + timedelta(minutes=i * 17 + n)
                    type(issued).objects.filter(pk=issued.pk).update(issued_at=when - timedelta(seconds=20))
                    issued.refresh_from_db()
                    try:
                        submit(issued, owner, values, now=when)
                    except AnswerError:
                        # a widget wrong_values() does not know: answer right instead
                        submit(issued, owner, right, now=when)
                    answered += 1
            made += 1
        self.stdout.write(self.style.SUCCESS(f"demo_data: {made} Konten, {answered} Antworten angelegt."))
