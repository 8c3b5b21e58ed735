"""Rich workspaces (seed 001): cards to compare, a dashboard and a day's itinerary on a map."""

from __future__ import annotations

from typing import Any

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
