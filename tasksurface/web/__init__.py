"""The web layer: app factory, pages, JSON API, websocket, pushes and rendering helpers."""
