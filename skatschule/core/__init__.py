"""The shared kernel of the apps: what every page and service leans on, and no page of its own.

- ``errors``, ``notfound``: the user's error with its message in two languages, and the
  not-found a service raises (the middleware turns it into the 404 page);
- ``language``: the one reader of the active language;
- ``limits``, ``security``, ``middleware``: size limits, login throttling, the content security
  policy, German first;
- ``cache``, ``db``: a Redis or database outage is a clean page, not a 500;
- ``people``, ``text``, ``spreadsheets``: names of (deleted) people, one-line text, exports;
- ``templatetags``: the site's chrome (header, menu) and people's names in templates.

The home page itself is the app ``skatschule.home``.
"""
