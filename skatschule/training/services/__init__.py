"""The training app's logic; the views only translate HTTP to these calls.

- :mod:`.owner`: who is practising (a user or an anonymous session);
- :mod:`.issuing`: ``issue`` an exercise, ``submit`` an answer;
- :mod:`.review`: the spaced-repetition queue (fsrs);
- :mod:`.progress_summary`: the running progress state, written with each answer;
- :mod:`.adoption`: ``adopt_session`` moves an anonymous session's work to a user.

The reads (accuracy, streaks, mastery and suggestions, all derived from attempts) are in
:mod:`skatschule.training.selectors`.
"""
