"""`delegate_task` on the OpenAI-compatible backend: the sub-agent's own request, its text as output,
and the end heard of in the owner's next request."""

from __future__ import annotations

import json

from tasksurface.backends.prompt import SUBAGENT

from ..support import Api, wait_for
from .wire import Call, Stream, WireServer

ANSWER = Stream(text=["Part one. ", "Part two."])


def test_a_sub_agent_streams_its_answer_as_output_and_the_owner_hears_of_the_end(
    api: Api, wire: WireServer
) -> None:
    arguments = json.dumps({"prompt": "Summarise the plan in two parts.", "label": "Summary"})
    # The sub-agent's request and the turn's next one race; both get the same answer.
    wire.script(Stream(calls=[Call("call_delegate_01", "delegate_task", arguments)]), ANSWER, ANSWER)
    sid = api.create_session()
    api.send(sid, "delegate it")
    tasks = wait_for(
        lambda: (t := api.get(f"/api/sessions/{sid}/tasks").json()["tasks"]) and t[0]["endedAt"] and t
    )
    assert (tasks[0]["kind"], tasks[0]["label"], tasks[0]["status"]) == ("delegate", "Summary", "completed")
    assert tasks[0]["tail"] == "Part one. Part two."
    wait_for(lambda: any(e["kind"] == "task/notice" for e in api.events(sid)))
    [sub_agent] = [r for r in wire.requests if r.messages[0]["content"] == SUBAGENT]
    assert sub_agent.messages == [
        {"role": "system", "content": SUBAGENT},
        {"role": "user", "content": "Summarise the plan in two parts."},
    ]
    assert "tools" not in sub_agent.body
    wire.script(Stream(text=["Noted."]))
    api.send(sid, "is it done?")
    wait_for(lambda: len(wire.requests) == 4)
    last = wire.requests[-1].messages
    notice = f"background task {tasks[0]['id']} (delegate: Summary) finished [status: completed]."
    assert {"role": "user", "content": notice + " Read its output with task_output."} in last
    assert last[-1] == {"role": "user", "content": "is it done?"}
