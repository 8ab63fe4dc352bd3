"""The training app: lessons, exercise pages, progress and spaced repetition under /ueben/.

It shows the exercise types of :mod:`skatschule.exercises` (it does not define them):
``lessons`` reads the lesson files, ``registry`` is the app's view of types and lessons for
other apps (registered with :mod:`skatschule.rules.practice` in ``apps.py``), ``services``
issue and grade exercises (``issuing``), keep the review cards (``review``), issue their
fresh variants (``variants``) and derive progress. Who practises is
:class:`skatschule.owners.Owner`.
"""
