"""The first panels: a comparison, a plan to order, a review and a form, and one panel with
all of them (`/surface all`). Version 1 of the model."""

from __future__ import annotations

from typing import Any

_DATABASES = [
    {"id": "sqlite", "label": "SQLite", "detail": "Embedded, one file, no server"},
    {"id": "postgres", "label": "PostgreSQL", "detail": "A server; replicas and rich types"},
    {"id": "mariadb", "label": "MariaDB", "detail": "A server; familiar to many hosts"},
]

COMPARE: dict[str, Any] = {
    "version": 1,
    "title": "Pick a database for the team wiki",
    "description": "Three candidates measured on last week's export (12,400 pages).",
    "sections": [
        {
            "id": "numbers",
            "title": "Measured",
            "layout": {"kind": "grid", "columns": 2},
            "blocks": [
                {
                    "kind": "metrics",
                    "items": [
                        {"label": "SQLite import", "value": "41 s", "detail": "single writer"},
                        {"label": "PostgreSQL import", "value": "58 s", "detail": "COPY, 4 workers"},
                    ],
                },
                {
                    "kind": "table",
                    "columns": [
                        {"id": "engine", "label": "Engine"},
                        {"id": "p95", "label": "p95 read (ms)"},
                        {"id": "backup", "label": "Online backup"},
                    ],
                    "rows": [
                        {"engine": "SQLite", "p95": 3.1, "backup": True},
                        {"engine": "PostgreSQL", "p95": 4.8, "backup": True},
                        {"engine": "MariaDB", "p95": 5.2, "backup": None},
                    ],
                },
            ],
        },
        {
            "id": "notes",
            "blocks": [
                {
                    "kind": "markdown",
                    "text": "SQLite is **fastest** here but allows *one writer* at a time. "
                    "See [the benchmark notes](https://example.org/bench) for method.",
                }
            ],
        },
    ],
    "fields": [
        {"kind": "choice", "id": "engine", "label": "Database", "options": _DATABASES, "initial": "postgres"},
        {"kind": "text", "id": "why", "label": "Anything the choice must also handle?"},
    ],
    "submit": {"label": "Choose"},
}

PLAN: dict[str, Any] = {
    "version": 1,
    "title": "Order the migration plan",
    "sections": [
        {
            "id": "context",
            "blocks": [
                {
                    "kind": "notice",
                    "tone": "warning",
                    "text": "Step 3 needs a maintenance window of about 20 minutes.",
                },
                {
                    "kind": "markdown",
                    "text": "Put the steps in the order you want them done. The first runs tonight.",
                },
            ],
        }
    ],
    "fields": [
        {
            "kind": "order",
            "id": "steps",
            "label": "Steps",
            "options": [
                {"id": "backup", "label": "Take a full backup"},
                {"id": "schema", "label": "Apply schema changes", "detail": "alembic upgrade head"},
                {"id": "switch", "label": "Switch traffic", "detail": "maintenance window"},
                {"id": "verify", "label": "Verify dashboards"},
            ],
        },
        {"kind": "text", "id": "constraints", "label": "Constraints", "multiline": True},
    ],
    "submit": {"label": "Use this order"},
}

REVIEW: dict[str, Any] = {
    "version": 1,
    "title": "Review the config change",
    "sections": [
        {
            "id": "change",
            "title": "Proposed change",
            "blocks": [
                {
                    "kind": "diff",
                    "path": "deploy/settings.toml",
                    "language": "toml",
                    "before": '[server]\nworkers = 2\ntimeout = 30\nlog = "info"\n',
                    "after": '[server]\nworkers = 4\ntimeout = 30\nlog = "warning"\n',
                },
                {"kind": "notice", "tone": "info", "text": "The change takes effect on the next deploy."},
            ],
        },
        {
            "id": "impact",
            "title": "Affected services",
            "blocks": [
                {
                    "kind": "table",
                    "columns": [{"id": "svc", "label": "Service"}, {"id": "owner", "label": "Owner"}],
                    "rows": [{"svc": "api", "owner": "Mei"}, {"svc": "worker", "owner": "Tom"}],
                }
            ],
        },
    ],
    "fields": [
        {"kind": "toggle", "id": "approve", "label": "Approve this change", "initial": False},
        {
            "kind": "multi-choice",
            "id": "notify",
            "label": "Notify",
            "options": [
                {"id": "mei", "label": "Mei"},
                {"id": "tom", "label": "Tom"},
                {"id": "ops", "label": "#ops"},
            ],
            "initial": ["ops"],
        },
    ],
    "submit": {"label": "Send review"},
}

FIELDS: dict[str, Any] = {
    "version": 1,
    "title": "Release checklist",
    "description": "Fill in the release details.",
    "sections": [{"id": "intro", "blocks": [{"kind": "markdown", "text": "One form, every field kind."}]}],
    "fields": [
        {"kind": "text", "id": "name", "label": "Release name", "required": True},
        {"kind": "text", "id": "notes", "label": "Release notes", "multiline": True},
        {
            "kind": "choice",
            "id": "channel",
            "label": "Channel",
            "options": [
                {"id": "stable", "label": "Stable"},
                {"id": "beta", "label": "Beta", "detail": "early adopters"},
            ],
        },
        {
            "kind": "multi-choice",
            "id": "platforms",
            "label": "Platforms",
            "options": [
                {"id": "linux", "label": "Linux"},
                {"id": "mac", "label": "macOS"},
                {"id": "win", "label": "Windows"},
            ],
        },
        {"kind": "toggle", "id": "announce", "label": "Announce on the blog"},
        {
            "kind": "order",
            "id": "rollout",
            "label": "Rollout order",
            "options": [
                {"id": "eu", "label": "Europe"},
                {"id": "us", "label": "Americas"},
                {"id": "asia", "label": "Asia"},
            ],
        },
    ],
    "submit": {"label": "Submit checklist"},
}

ALL: dict[str, Any] = {
    "version": 1,
    "title": "Everything a Task Surface can show",
    "description": "Every block kind, both layouts and every field kind.",
    "sections": [
        {
            "id": "overview",
            "title": "Overview",
            "layout": {"kind": "grid", "columns": 3},
            "blocks": [
                {
                    "kind": "metrics",
                    "items": [
                        {"label": "Open issues", "value": "12"},
                        {"label": "Closed", "value": "40", "detail": "this month"},
                    ],
                },
                {"kind": "notice", "tone": "neutral", "text": "Figures are from this morning."},
                {"kind": "notice", "tone": "info", "text": "Two reviewers are away."},
            ],
        },
        {
            "id": "details",
            "title": "Details",
            "layout": {"kind": "stack"},
            "blocks": [
                {
                    "kind": "markdown",
                    "text": "## Summary\n\n- item one\n- item `two`\n\n![chart](https://example.org/chart.png)",
                },
                COMPARE["sections"][0]["blocks"][1],
                REVIEW["sections"][0]["blocks"][0],
                {"kind": "diff", "path": "docs/NEW.md", "before": None, "after": "# New file\n"},
                {"kind": "notice", "tone": "warning", "text": "Shipping needs one approval."},
            ],
        },
    ],
    "fields": [
        {"kind": "text", "id": "summary", "label": "Summary", "required": True, "initial": "Looks good"},
        {"kind": "text", "id": "comments", "label": "Comments", "multiline": True},
        COMPARE["fields"][0],
        REVIEW["fields"][1],
        REVIEW["fields"][0],
        PLAN["fields"][0],
    ],
    "submit": {"label": "Submit"},
}
