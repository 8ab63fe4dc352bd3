"""What the quizzes app tells other apps (which import it; it imports none of them).

``attempt_submitted(sender=QuizAttempt, attempt=...)``: an attempt was submitted (by the student
or when its time ran out), sent once per attempt after the transaction commits.

``attempt_regraded(sender=QuizAttempt, attempt=...)``: the teacher changed the score of a submitted
attempt (an override of one answer), sent after the transaction commits.
"""

from django.dispatch import Signal

attempt_submitted = Signal()
attempt_regraded = Signal()
