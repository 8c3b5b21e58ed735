"""The generic agent: per-session runner, tool registry, model backend port.

Nothing here knows Task Surface; tools and backends are plugged in by the app.
"""
