"""Quizzes for classes: build, publish, take and grade them (grading by the engine's exercises).

Layout (reads and writes apart):

- ``services/authoring.py``: writes of teachers: ``build_pool``, ``create_quiz``,
  ``update_quiz(*, quiz, editor, changes: QuizChanges)``, ``close_quiz``; ``publishing.py``
  (publish, unpublish, copy) and ``own_items.py`` (own items from the card picker) write too.
- ``services/attempts.py``: writes of students: ``start_attempt``, ``save_answer``, ``submit``,
  ``finalize_expired``. Services are keyword-only; their writes run under ``transaction.atomic``
  (``finalize_expired`` submits each expired attempt in its own transaction).
- ``selectors/``: every read, one module per kind of page: ``teaching`` (the teacher's quizzes,
  attempts, own items), ``taking`` (the student's quizzes, attempts, answer keys), ``results``
  (results table, grades, overrides), ``analysis`` (item analysis), ``live`` (live rounds);
  ``exports.py`` builds the CSV table from those reads and formats it as CSV, XLSX and Moodle XML.
- ``questions.py``: pure computation (seeds, the question an item shows, grading, timing, when
  right answers may be shown, item names); ``levels.py``: difficulty levels;
  ``errors.py``: ``QuizError``, ``QuizClosed``, ``QuizLocked``.
- ``views*.py`` translate HTTP to these calls and run no queries of their own.
"""
