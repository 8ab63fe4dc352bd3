"""The exercises graded by a job: the Drücken trainer (``druecken``) and "Reizen, am Spiel gemessen"
(``reizen_gespielt``), on the same pages (see :mod:`.work` and :mod:`.views`)."""
