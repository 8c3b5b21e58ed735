"""A page sent in two parts: its head as soon as the template reaches `</head>`, then the rest.

The head names the stylesheet, the page script and the socket, so the browser fetches them (and
opens the socket) while the server still draws the body. Each part is compressed and flushed on
its own: a compressor that held the head back until the end would undo the point. The reads
behind the page stay in one snapshot, closed once the body is drawn and before it is written.
A failure after the head has left cannot change the status any more; the body then says the
page could not be drawn, and the failure is logged as any other.
"""

from __future__ import annotations

import logging
import socket
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack
from typing import Any

import brotli
from flask import Response, current_app, request, stream_template, stream_with_context
from flask_babel import gettext
from markupsafe import escape

logger = logging.getLogger(__name__)

HEAD_END = "</head>"


def streamed_page(
    snapshot: AbstractContextManager[None], template: str, context: Callable[[], Mapping[str, Any]]
) -> Response:
    """`template` drawn with what `context()` reads, all inside `snapshot`; refusals raised
    while reading (before anything is sent) take the app's usual error paths."""
    held = ExitStack()
    held.enter_context(snapshot)
    try:
        pieces = stream_template(template, **context())
    except BaseException:
        held.close()
        raise
    encoding = _encoding()
    response = Response(stream_with_context(_encoded(_parts(pieces, held), encoding)), mimetype="text/html")
    response.call_on_close(held.close)  # a response never read (a HEAD request) still ends the snapshot
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    _send_small_writes_at_once()
    return response


def _parts(pieces: Iterator[str], held: ExitStack) -> Iterator[str]:
    with held:
        head: list[str] = []
        rest = ""
        for piece in pieces:
            end = piece.find(HEAD_END)
            if end < 0:
                head.append(piece)
                continue
            cut = end + len(HEAD_END)
            head.append(piece[:cut])
            rest = piece[cut:]
            break
        yield "".join(head)
        try:
            body = rest + "".join(pieces)
        except Exception:
            logger.exception("the page %s failed after its head was sent", request.path)
            body = _failed_body()
    yield body


def _failed_body() -> str:
    notice = escape(gettext("This page could not be shown in full. Reload it to try again."))
    return f'<body><main id="main"><p class="refusal" role="alert">{notice}</p></main></body></html>'


def _encoding() -> str:
    accepted = request.accept_encodings
    if accepted["br"]:
        return "br"
    if accepted["gzip"]:
        return "gzip"
    return "identity"


def _encoded(parts: Iterator[str], encoding: str) -> Iterator[bytes]:
    """Each part compressed and flushed, so the browser can read the head before the body exists;
    at the levels Flask-Compress uses for every other response."""
    config = current_app.config
    if encoding == "br":
        compressor = brotli.Compressor(quality=config["COMPRESS_BR_LEVEL"])
        for part in parts:
            yield compressor.process(part.encode()) + compressor.flush()
        yield compressor.finish()
    elif encoding == "gzip":
        gzip = zlib.compressobj(config["COMPRESS_LEVEL"], zlib.DEFLATED, zlib.MAX_WBITS | 16)
        for part in parts:
            yield gzip.compress(part.encode()) + gzip.flush(zlib.Z_SYNC_FLUSH)
        yield gzip.flush()
    else:
        for part in parts:
            yield part.encode()


def _send_small_writes_at_once() -> None:
    """The development server leaves Nagle's algorithm on, so a write that follows an
    unacknowledged one may wait for the peer's delayed acknowledgement (tens of ms); gunicorn
    already turns it off on its own sockets."""
    connection = request.environ.get("werkzeug.socket")
    if isinstance(connection, socket.socket) and connection.family in (socket.AF_INET, socket.AF_INET6):
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
