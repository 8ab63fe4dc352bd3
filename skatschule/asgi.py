"""ASGI entry point: ``manage.py serve`` (make run) and ``gunicorn -k uvicorn_worker.UvicornWorker
skatschule.asgi:application`` in production. ASGI keeps the pushed event streams
(:mod:`skatschule.push`) open without a thread each."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatschule.settings")
application = get_asgi_application()
