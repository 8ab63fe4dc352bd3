"""What the table app tells other apps (which import it; it imports none of them).

``records_imported(sender=None, owner=Owner, records=[str], address=str)``: a visitor read ISS
records in at ``/ueben/spiel/iss/`` (the good ones, already read by the engine). The puzzles app
listens: every imported game is a source of puzzles, examined by a job, not by the request.
"""

from django.dispatch import Signal

records_imported = Signal()
