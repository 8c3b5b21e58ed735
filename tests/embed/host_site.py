"""A team's own site, as small as can be: a real HTTP server on 127.0.0.1 serving host pages.

Browsers reach it as `localhost:<port>` (and `<name>.localhost:<port>`), which are other sites
than the app on `127.0.0.1:<port>`, so a frame of the app on these pages is a cross-site frame.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class HostSite:
    def __init__(self, port: int) -> None:
        self.pages: dict[str, str] = {}
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = site.pages.get(self.path.split("?")[0])
                data = (body or "no such page").encode()
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = port
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str = "/", host: str = "localhost") -> str:
        return f"http://{host}:{self.port}{path}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


RECORDER = """<script>
  window.received = [];
  ["ready", "session-created", "surface-opened", "submitted", "dismissed"].forEach(function (type) {
    document.addEventListener("tasksurface:" + type, function (event) {
      window.received.push(Object.assign({ type: type }, event.detail));
    });
  });
</script>"""


INLINE = 'data-target="#chat"'


def host_page(app_url: str, *, token: str = "", attributes: str = INLINE, extra: str = "") -> str:
    """A host page with the one script tag, and a recorder of the events it gets."""
    token_attribute = f' data-token="{token}"' if token else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Team site</title></head>
<body><h1>Our app</h1>{RECORDER}
<div id="chat"></div>
<script src="{app_url}/embed.js" {attributes}{token_attribute}></script>
{extra}
</body></html>"""
