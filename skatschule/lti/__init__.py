"""LTI 1.3 Advantage: the site as a tool in a school's LMS (Moodle, itslearning ...).

The protocol (OIDC login, signed launches, keys, deep-linking JWTs, the platform's services) is
the kept library ``django-lti`` (``lti_tool``, on ``pylti1p3``); this app maps it onto the site:
an LMS course is a class (:mod:`skatschule.classrooms`), a deep link is a quiz or a lesson, the
roster fills the class, and a finished quiz's score goes back to the LMS gradebook as a job
(``lti.score``).
"""
