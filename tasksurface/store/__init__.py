"""Storage: tables, engine setup, the append-only session log and the durable inbox.

Storage knows nothing of HTML or HTTP; it takes and returns plain values.
"""
