"""SIGTERM drains: sockets told to reconnect (1012), nothing queued lost, the next process takes over."""

from __future__ import annotations

import websocket

from ..support import RELEASE_VALUES, Api, new_id
from .conftest import Launcher
from .test_serving import close, open_socket

VALUES = RELEASE_VALUES


def test_sigterm_closes_sockets_with_1012_and_the_next_process_admits_what_was_queued(
    production: Launcher,
) -> None:
    first = production().start()
    with Api(first.url) as api:
        sid = api.create_session()
        surface = api.show_surface(sid)
        api.pause(sid)  # the answer waits in the durable inbox while the process stops
        submission = new_id()
        assert api.submit(sid, surface, VALUES, submission)["phase"] == "queued"
        ws = open_socket(api, sid)
        try:
            first.terminate()
            opcode, frame = ws.recv_data_frame(True)
            assert opcode == websocket.ABNF.OPCODE_CLOSE
            assert int.from_bytes(frame.data[:2], "big") == 1012
            assert frame.data[2:] == b"server-restart"
        finally:
            close(ws)
        assert first.wait(60) == 0, first.log()

        successor = production(port=first.port).start()  # same port, same database
        assert successor.url == api.base
        assert [item["source"]["taskSurface"]["submissionId"] for item in api.queue(sid)] == [submission]
        assert api.get_active(sid, surface)["pending"]["phase"] == "queued"
        api.pause(sid, False)
        events = api.settled(sid)
        answers = [
            e
            for e in events
            if e["kind"] == "user/message"
            and e["payload"]["source"].get("taskSurface", {}).get("submissionId") == submission
        ]
        assert len(answers) == 1
        assert api.projection(sid)["active"] is None
