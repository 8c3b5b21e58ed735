"""An operator's map tiles in a real Chromium, against a real local HTTPS tile server: when the
tiles fail the itinerary's list still works and a Retry asks for them again; once the server is
back the map draws them and the notice stays away. The CSP admits that one host and no other."""

from __future__ import annotations

import io
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from ..conftest import LiveServer
from ..support import Api
from .conftest import CHROMEDRIVER, chromium_options
from .pages import ChatPage, browse_as, wait_until
from .test_panels_v2 import click

pytestmark = pytest.mark.browser


def _tile_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (256, 256), (200, 220, 200)).save(out, "PNG")
    return out.getvalue()


class TileServer:
    """Answers tile requests with 503 while `failing`, with a PNG otherwise; counts what it served."""

    def __init__(self, cert: Path, key: Path) -> None:
        self.failing = True
        self.served: list[tuple[str, int]] = []
        png = _tile_png()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                status = 503 if server.failing else 200
                server.served.append((self.path, status))
                self.send_response(status)
                self.send_header("Content-Type", "image/png" if status == 200 else "text/plain")
                body = png if status == 200 else b"down"
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self._http.socket = context.wrap_socket(self._http.socket, server_side=True)
        self.port = self._http.server_address[1]
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()

    def successes(self) -> int:
        return sum(1 for _, status in self.served if status == 200)

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
    subprocess.run(
        [
            "openssl",
            *request,
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tile_server(certificate: tuple[Path, Path]) -> Iterator[TileServer]:
    server = TileServer(*certificate)
    yield server
    server.stop()


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


@pytest.fixture
def app_config(database_url: str, tile_server: TileServer) -> dict[str, Any]:
    tiles = f"https://127.0.0.1:{tile_server.port}/{{z}}/{{x}}/{{y}}.png"
    return {"database_url": database_url, "secret_key": "test-secret-key", "map_tiles": tiles}


@pytest.fixture
def tls_browser(tmp_path: Path) -> Iterator[WebDriver]:
    """Chromium that accepts the test tile server's self-signed certificate."""
    options = chromium_options(tmp_path / "profile")
    options.add_argument("--ignore-certificate-errors")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def _stops(browser: WebDriver) -> list[str]:
    return [
        str(li.get_attribute("data-option-id"))
        for li in browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .stops .stop")
    ]


def test_failing_tiles_leave_the_list_usable_and_retry_draws_them(
    tls_browser: WebDriver, live_server: LiveServer, tile_server: TileServer
) -> None:
    browser = tls_browser
    api = Api(live_server.url)
    sid = api.create_session()
    api.show_surface(sid, "itinerary")
    policy = api.get(f"/sessions/{sid}").headers["Content-Security-Policy"]
    assert f"https://127.0.0.1:{tile_server.port}" in policy
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    notice = wait_until(
        browser,
        lambda d: (
            (n := d.find_element(By.CSS_SELECTOR, "#task-surface-dock .map-tiles-failed")).is_displayed()
            and n
        ),
    )
    assert isinstance(notice, WebElement)
    assert "the list still works" in notice.text
    tiles = len(browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .map-tile"))
    assert tiles > 0 and tile_server.successes() == 0
    # The list works while the map has no tiles.
    click(browser, '#task-surface-dock .stop[data-option-id="castle"] [data-move=up]')
    wait_until(browser, lambda d: _stops(d) == ["belem", "pasteis", "castle", "timeout"])
    # The server comes back; Retry asks again, every tile arrives and the notice stays hidden.
    tile_server.failing = False
    click(browser, "#task-surface-dock .map-retry")
    wait_until(browser, lambda d: tile_server.successes() >= tiles)
    # The map's own tile images asked again (not only the probes), each once the server answered.
    redrawn = browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.initiatorType === 'image' && e.name.includes('#retry-')).length"
    )
    assert redrawn == tiles
    assert not notice.is_displayed()
    assert _stops(browser) == ["belem", "pasteis", "castle", "timeout"]
