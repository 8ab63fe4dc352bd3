"""The Drücken trainer: the exercise type ``druecken`` graded by a job (see :mod:`.work`)."""
