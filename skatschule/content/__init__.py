"""The content format: Markdown with ``@blocks`` and ``[[name: arg]]`` directives.

Pure Python on top of the engine (no Django), so the rules app, the casebook, the
lessons and the exercises can all read it without importing each other:

- :mod:`.ids`: :class:`RuleId`, the one grammar of rule and section ids (parse, str,
  ordering, ``is_section``; :data:`ids.PATTERN` for the ``rule`` URL converter);
- :mod:`.directives`: the one grammar of ``[[name: arg]]`` (find, replace, split);
- :mod:`.blocks`: the one block reader (front matter, ``key: value``, ``@block``,
  ``de:``/``en:`` parts);
- :mod:`.compute`: what the directives compute, as plain text (engine only);
- :mod:`.plain`: Markdown with directives as plain text (for exercises and search).

The schemas live with their apps: ``rules.content`` (chapters, glossary),
``casebook.cases`` (cases) and ``training.lessons`` (lessons); the HTML of the
directives is ``rules.directives``.
"""

from .directives import DIRECTIVE_RE, Directive, find_directives, parse_directive, replace_directives
from .ids import RuleId, is_rule_id

__all__ = [
    "DIRECTIVE_RE",
    "Directive",
    "RuleId",
    "find_directives",
    "is_rule_id",
    "parse_directive",
    "replace_directives",
]
