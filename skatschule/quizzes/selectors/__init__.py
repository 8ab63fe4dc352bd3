"""Reads of the quizzes app, one module per kind of page they serve (import the module you need):

- :mod:`.teaching`: the teacher's own quizzes, attempts, items and own items, a quiz's sources;
- :mod:`.taking`: the student's quizzes, attempts and answers, the answer key;
- :mod:`.results`: the results table, its CSV lines, grades and overrides;
- :mod:`.analysis`: the item analysis (facility, discrimination, common wrong answers);
- :mod:`.live`: the live rounds.

What is not a query lives where it belongs: when answers may be shown and the exercise types'
names in :mod:`skatschule.quizzes.questions`, the form choices in :mod:`skatschule.quizzes.levels`
and :mod:`skatschule.quizzes.forms`, the CSV table in :mod:`skatschule.quizzes.exports`.
"""
