"""A crash of the web process: its embedded tasks are reported failed, with one notice each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..server_process import ServerProcess
from ..support import Api, wait_for
from .helpers import ended, notices, release, run, task


@pytest.fixture
def server(database_url: str, tmp_path: Path, commands_file: Path) -> Iterator[ServerProcess]:
    env = {"TASKSURFACE_COMMANDS_FILE": str(commands_file), "TASKSURFACE_TASK_HOST_TIMEOUT": "2"}
    process = ServerProcess(database_url, tmp_path / "instance", env).start()
    yield process
    process.stop()


def test_tasks_of_a_killed_host_are_reported_failed_once_never_left_running(
    server: ServerProcess, tmp_path: Path
) -> None:
    steps = tmp_path / "steps"
    steps.mkdir()
    with Api(server.url) as api:
        sid = api.create_session()
        task_id = run(api, sid, "steps", {"folder": str(steps), "steps": "before the crash,after"})
        wait_for(lambda: "before the crash" in task(api, sid, task_id)["tail"])
        server.kill()
        server.start()
        failed = ended(api, sid, task_id)
        assert (failed["status"], failed["detail"]) == ("failed", "the host stopped")
        [notice] = wait_for(lambda: notices(api, sid, task_id))
        assert notice["payload"]["text"] == (
            f"background task {task_id} (command: Steps in {steps}) finished [status: failed] "
            "the host stopped. Read its output with task_output."
        )
        server.stop()  # and once more: a clean restart writes no second notice
        server.start()
        api.send(sid, "still there?")
        api.settled(sid)
        assert len(notices(api, sid, task_id)) == 1
        assert task(api, sid, task_id)["status"] == "failed"
    # The orphaned command goes on until its next write meets the closed pipe.
    release(steps, 1)
    release(steps, 2)
