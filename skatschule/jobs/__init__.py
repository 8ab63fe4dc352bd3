"""Heavy work off the request path: jobs run by a worker through Django's tasks API.

An app registers a handler per kind (:mod:`.registry`), a view submits a job with
:func:`.services.submit` and shows its progress with ``templates/jobs/progress.html`` until the
result is there. Results are kept per ``(kind, key)`` (:class:`.models.Result`), so a second
asker of the same position gets them at once. See skatschule/operations/README.md, "Hintergrundarbeit".
"""
