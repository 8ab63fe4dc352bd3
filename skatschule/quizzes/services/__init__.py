"""Writes of the quizzes app: :mod:`.authoring` (build, create, update, close) and :mod:`.attempts`
(start, save an answer, submit). Reads live in :mod:`skatschule.quizzes.selectors` (one module per kind of page)."""
