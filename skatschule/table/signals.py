"""What the table app tells other apps (which import it; it imports none of them).

``records_imported(sender=None, owner=Owner, records=[str], address=str)``: a visitor read ISS
records in at ``/ueben/spiel/iss/`` (the good ones, already read by the engine). The puzzles app
listens: every imported game is a source of puzzles, examined by a job, not by the request.

``contest_moved(sender=Table, table=Table, user=User, state=GameState)``: a signed-in learner's
contest game (``Table.contest``, a deal of "Das Blatt der Woche") moved on; sent by
``services.report_contest``. The weekly app listens: it keeps the moves and, at the end, the result.
"""

from django.dispatch import Signal

records_imported = Signal()
contest_moved = Signal()
