"""Shipped demo models for the scripted agent; together they use every block and field kind."""

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

DEMOS: dict[str, dict[str, Any]] = {
    "compare": COMPARE,
    "plan": PLAN,
    "review": REVIEW,
    "fields": FIELDS,
    "all": ALL,
}

# --- version 2 -------------------------------------------------------------------------

_CITIES = [
    "Amsterdam",
    "Athens",
    "Auckland",
    "Bangkok",
    "Barcelona",
    "Beijing",
    "Berlin",
    "Bogotá",
    "Boston",
    "Brussels",
    "Buenos Aires",
    "Cairo",
    "Cape Town",
    "Chengdu",
    "Chicago",
    "Copenhagen",
    "Delhi",
    "Dubai",
    "Dublin",
    "Edinburgh",
    "Helsinki",
    "Hong Kong",
    "Istanbul",
    "Jakarta",
    "Kyiv",
    "Lagos",
    "Lima",
    "Lisbon",
    "London",
    "Los Angeles",
    "Madrid",
    "Melbourne",
    "Mexico City",
    "Milan",
    "Montréal",
    "Mumbai",
    "Munich",
    "Nairobi",
    "New York",
    "Osaka",
    "Oslo",
    "Paris",
    "Prague",
    "Reykjavík",
    "Rome",
    "San Francisco",
    "Santiago",
    "São Paulo",
    "Seoul",
    "Shanghai",
    "Shenzhen",
    "Singapore",
    "Stockholm",
    "Sydney",
    "Taipei",
    "Tokyo",
    "Toronto",
    "Vancouver",
    "Vienna",
    "Warsaw",
    "Zürich",
]

INPUTS: dict[str, Any] = {
    "version": 2,
    "title": "Book the team offsite",
    "description": "Typed inputs, constraints and a field that appears only when it applies.",
    "sections": [
        {
            "id": "intro",
            "blocks": [
                {"kind": "markdown", "text": "Every value is checked on the server before it is sent."}
            ],
        }
    ],
    "fields": [
        {
            "kind": "number",
            "id": "people",
            "label": "People",
            "minimum": 2,
            "maximum": 40,
            "step": 1,
            "integer": True,
            "unit": "people",
            "initial": 8,
            "help": "Between 2 and 40.",
        },
        {
            "kind": "number",
            "id": "budget",
            "label": "Budget per person",
            "minimum": 0,
            "step": 0.5,
            "unit": "EUR",
            "required": True,
        },
        {
            "kind": "date",
            "id": "start",
            "label": "First day",
            "minimum": "2026-01-05",
            "maximum": "2026-12-18",
            "required": True,
        },
        {
            "kind": "choice",
            "id": "city",
            "label": "City",
            "filterable": True,
            "options": [{"id": f"c{n}", "label": name} for n, name in enumerate(_CITIES, 1)],
        },
        {
            "kind": "choice",
            "id": "stay",
            "label": "Where to stay",
            "presentation": "cards",
            "options": [
                {"id": "hotel", "label": "Hotel", "detail": "Rooms booked for everyone"},
                {"id": "house", "label": "A shared house", "detail": "One big kitchen"},
                {"id": "other", "label": "Something else"},
            ],
            "initial": "hotel",
        },
        {
            "kind": "text",
            "id": "other_stay",
            "label": "What instead?",
            "required": True,
            "minLength": 3,
            "maxLength": 200,
            "visibleWhen": {"field": "stay", "equals": "other"},
        },
        {
            "kind": "text",
            "id": "contact",
            "label": "Contact email",
            "format": "email",
            "placeholder": "name@example.com",
        },
        {
            "kind": "text",
            "id": "code",
            "label": "Cost centre",
            "pattern": "[A-Z]{2}-[0-9]{4}",
            "placeholder": "AB-1234",
            "help": "Two capital letters, a dash and four digits.",
        },
        {
            "kind": "multi-choice",
            "id": "diet",
            "label": "Meals to plan for",
            "minItems": 1,
            "maxItems": 3,
            "options": [
                {"id": "veg", "label": "Vegetarian"},
                {"id": "vegan", "label": "Vegan"},
                {"id": "gluten", "label": "Gluten-free"},
                {"id": "halal", "label": "Halal"},
            ],
        },
        {"kind": "toggle", "id": "terms", "label": "I checked the dates with everyone", "required": True},
    ],
    "submit": {"label": "Book it"},
}

APPROVE: dict[str, Any] = {
    "version": 2,
    "title": "Approve the deploy settings",
    "sections": [
        {
            "id": "context",
            "blocks": [
                {"kind": "notice", "tone": "info", "text": "Accept or reject each change, then decide."},
            ],
        }
    ],
    "fields": [
        {
            "kind": "review",
            "id": "settings",
            "label": "Changes to the deploy settings",
            "path": "deploy/settings.toml",
            "language": "toml",
            "before": '[server]\nworkers = 2\ntimeout = 30\nlog = "info"\n\n[cache]\nsize = "256MB"\n',
            "after": (
                '[server]\nworkers = 4\ntimeout = 30\nlog = "warning"\n\n[cache]\nsize = "1GB"\nttl = 600\n'
            ),
        },
        {
            "kind": "multi-choice",
            "id": "notify",
            "label": "Tell",
            "options": [
                {"id": "mei", "label": "Mei"},
                {"id": "tom", "label": "Tom"},
                {"id": "ops", "label": "#ops"},
            ],
            "initial": ["ops"],
        },
    ],
    "submit": {
        "actions": [
            {"id": "approve", "label": "Approve", "tone": "primary"},
            {"id": "changes", "label": "Request changes", "tone": "neutral"},
            {"id": "reject", "label": "Reject", "tone": "danger"},
        ]
    },
    "actions": [
        {"id": "dry_run", "label": "Run a dry run first"},
        {"id": "explain", "label": "Explain the cache change"},
    ],
}

DEMOS.update({"inputs": INPUTS, "approve": APPROVE})

# --- rich workspaces (seed 001) ------------------------------------------------------------

COMPARE_CARDS: dict[str, Any] = {
    "version": 2,
    "title": "Pick a laptop for the new hire",
    "description": "Four models the supplier has in stock this week.",
    "sections": [
        {
            "id": "note",
            "blocks": [{"kind": "notice", "tone": "info", "text": "Prices include three years of care."}],
        }
    ],
    "fields": [
        {
            "kind": "comparison",
            "id": "laptop",
            "label": "Laptop",
            "select": "one",
            "properties": [
                {"id": "cpu", "label": "Processor"},
                {"id": "ram", "label": "Memory", "unit": "GB"},
                {"id": "weight", "label": "Weight", "unit": "kg"},
                {"id": "battery", "label": "Battery", "unit": "h"},
                {"id": "linux", "label": "Runs Linux well"},
            ],
            "candidates": [
                {
                    "id": "air13",
                    "label": "Aero 13",
                    "group": "13-inch",
                    "detail": "Fanless, quiet in meetings",
                    "price": {"amount": 1299, "currency": "EUR"},
                    "values": {"cpu": "8-core ARM", "ram": 16, "weight": 1.24, "battery": 18, "linux": False},
                },
                {
                    "id": "x13",
                    "label": "Carbon X13",
                    "group": "13-inch",
                    "price": {"amount": 1449, "currency": "EUR"},
                    "values": {"cpu": "12-core x86", "ram": 32, "weight": 1.12, "battery": 12, "linux": True},
                },
                {
                    "id": "p14",
                    "label": "Pro 14",
                    "group": "14-inch",
                    "detail": "Best screen of the four",
                    "price": {"amount": 1899, "currency": "EUR"},
                    "values": {"cpu": "12-core ARM", "ram": 32, "weight": 1.6, "battery": 17, "linux": False},
                },
                {
                    "id": "fw14",
                    "label": "Frame 14",
                    "group": "14-inch",
                    "detail": "Repairable; ports you can swap",
                    "price": {"amount": 1199, "currency": "EUR"},
                    "values": {"cpu": "12-core x86", "ram": 16, "weight": 1.4, "battery": 10, "linux": True},
                },
            ],
            "initial": "x13",
        },
        {"kind": "text", "id": "why", "label": "Anything the choice must also handle?", "multiline": True},
    ],
    "submit": {"label": "Order this one"},
}

_WEEKS = [f"W{n}" for n in range(1, 13)]

DASHBOARD: dict[str, Any] = {
    "version": 2,
    "title": "Sign-ups this quarter",
    "sections": [
        {
            "id": "explore",
            "blocks": [
                {
                    "kind": "dashboard",
                    "title": "Weekly figures",
                    "categories": _WEEKS,
                    "series": [
                        {
                            "id": "signups",
                            "label": "Sign-ups",
                            "values": [120, 135, 128, 160, 171, 158, 190, 204, 199, 230, 241, 262],
                        },
                        {
                            "id": "active",
                            "label": "Activated",
                            "values": [80, 92, 85, 110, 121, 104, 133, 150, None, 171, 180, 199],
                        },
                        {
                            "id": "churn",
                            "label": "Churn",
                            "unit": "%",
                            "values": [3.1, 2.9, 3.4, 2.7, 2.5, 2.8, 2.4, 2.2, 2.6, 2.1, 2.0, 1.9],
                        },
                    ],
                    "charts": ["area", "bar"],
                },
                {
                    "kind": "chart",
                    "title": "Sign-ups by channel",
                    "type": "bar",
                    "categories": ["Search", "Referral", "Social", "Direct"],
                    "series": [
                        {"id": "q3", "label": "Last quarter", "values": [410, 220, 180, 300]},
                        {"id": "q4", "label": "This quarter", "values": [520, 310, 150, 420]},
                    ],
                },
            ],
        }
    ],
    "submit": {"label": "Done"},
}

_LISBON = [
    ("belem", "Belém Tower", "Sights", 38.6916, -9.2160, "16th-century fort on the river"),
    ("jeronimos", "Jerónimos Monastery", "Sights", 38.6979, -9.2068, "Manueline cloisters"),
    ("pasteis", "Pastéis de Belém", "Food", 38.6975, -9.2033, "The custard tarts, since 1837"),
    ("lxf", "LX Factory", "Food", 38.7036, -9.1784, "Old mill with shops and cafés"),
    ("comercio", "Praça do Comércio", "Sights", 38.7075, -9.1364, "The great square on the Tagus"),
    ("timeout", "Time Out Market", "Food", 38.7069, -9.1459, "Food hall in the Ribeira market"),
    ("castle", "São Jorge Castle", "Sights", 38.7139, -9.1335, "Moorish castle above Alfama"),
    ("monte", "Miradouro da Senhora do Monte", "Views", 38.7191, -9.1326, "The highest viewpoint"),
    ("graca", "Miradouro da Graça", "Views", 38.7163, -9.1310, "Sunset over the old town"),
]

ITINERARY: dict[str, Any] = {
    "version": 2,
    "title": "Plan a day in Lisbon",
    "description": "Choose the stops and their order; the tram runs between most of them.",
    "sections": [],
    "fields": [
        {
            "kind": "itinerary",
            "id": "day",
            "label": "The day's stops",
            "places": [
                {"id": pid, "label": label, "group": group, "lat": lat, "lon": lon, "detail": detail}
                for pid, label, group, lat, lon, detail in _LISBON
            ],
            "initial": ["belem", "pasteis", "timeout", "castle"],
            "minItems": 2,
            "maxItems": 7,
            "required": True,
        }
    ],
    "submit": {"label": "Plan this day"},
}

DEMOS.update({"compare-cards": COMPARE_CARDS, "dashboard": DASHBOARD, "itinerary": ITINERARY})
