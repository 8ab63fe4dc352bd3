"""WSGI entry point (gunicorn skatschule.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatschule.settings")
application = get_wsgi_application()
