"""Rules of the production server that hold before any worker starts (no Flask, no database I/O)."""

from __future__ import annotations


class SeveralProcessesOnSqlite(RuntimeError):
    """SQLite serves one process: several would each run a runner and claims of their own."""


def check_processes(database_url: str, processes: int) -> None:
    """Several server processes need PostgreSQL; on SQLite, say why and what to do instead."""
    if processes > 1 and database_url.startswith("sqlite"):
        raise SeveralProcessesOnSqlite(
            f"refusing to start {processes} server processes on SQLite ({database_url}): SQLite "
            "serves one process, because each process would run its own agent runners and pending "
            "claims on the same file and admit or show the same sessions inconsistently. Either use "
            "PostgreSQL (TASKSURFACE_DATABASE_URL=postgresql://user@host/db), which several processes "
            "and machines can share, or serve one process (WEB_CONCURRENCY=1)."
        )
