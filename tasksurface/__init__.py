"""Task Surface: an agent chat host whose agent can dock one bounded, replayable panel.

Importing the package imports no web framework; `tasksurface.web.factory.create_app`
builds the Flask application.
"""
