"""Version 2 panels: every input the second version adds (`/surface inputs`), and a change to
approve with actions beside Submit (`/surface approve`)."""

from __future__ import annotations

from typing import Any

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
