"""The least a chat page can be, for `bench_page_floor.py`: one enabled Submit button, marked live
from the first byte, served by the same development server as the product. What a cold browser
needs to show any page on this machine is measured on it, beside the chat page."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)

FLOOR = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Floor</title><style>body { font-family: system-ui, sans-serif; }</style></head>
<body data-live="true"><main><p>The least page with a Submit button.</p>
<form method="post"><button type="submit" data-action="submit">Submit</button></form></main></body>
</html>
"""


@app.get("/")
def floor() -> str:
    return FLOOR
