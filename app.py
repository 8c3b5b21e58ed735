"""Builds the app from the factory; `flask --app app run` or a WSGI server serves `app:app`."""

from tasksurface.web.factory import create_app

app = create_app()
