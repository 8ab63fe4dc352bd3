"""The casebook's two exercise types, built on the cases (:mod:`skatschule.casebook.cases`,
the casebook as data):

- :mod:`.fall` (slug ``fall``): "Entscheide den Fall", a case as it is written;
- :mod:`.fall_variante` (slug ``fall_variante``): a case asked again with other numbers, for
  the referee exam.

They join ``skatschule.exercises.REGISTRY`` from ``CasebookConfig.ready()``.
"""
