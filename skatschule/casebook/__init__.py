"""The casebook app: cases of irregularities, the case pages and the referee exam under /faelle/.

``cases`` reads ``rules_content/casebook/``; the exercise types that read the cases live
here, on top of :mod:`skatschule.exercises`: ``fall`` (registered into
``skatschule.exercises.REGISTRY`` from ``apps.CasebookConfig.ready``) and ``fall_variante``
(asked only in the exam). ``services`` and ``selectors`` hold the logic and the reads.
"""
