"""Background task tests: the real app with a commands file of test commands, each ended by the test.

`steps` prints each of its steps, then waits until the test creates a file named after the
step's number before it goes on, so a test decides exactly when a task writes and when it
ends, with no fixed waits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

COMMANDS = """
[commands.emit]
description = "Writes the text and exits with the code."
argv = [
  "{python}", "-c", "import sys; sys.stdout.write(sys.argv[1]); sys.exit(int(sys.argv[2]))",
  "{text}", "{code}",
]
label = "Emit {code}"
[commands.emit.args.text]
type = "string"
max_length = 4000
[commands.emit.args.code]
type = "integer"
default = 0

[commands.steps]
description = "Prints each step, then waits for the file of that name in the folder before the next."
label = "Steps in {folder}"
argv = ["{python}", "-u", "-c", '''
import os, sys, time
folder, steps = sys.argv[1], sys.argv[2].split(",")
for number, step in enumerate(steps, 1):
    print(step, flush=True)
    while not os.path.exists(os.path.join(folder, str(number))):
        time.sleep(0.01)
print("end", flush=True)
''', "{folder}", "{steps}"]
progress = '^(\\d+)/(\\d+)$'
[commands.steps.args.folder]
type = "string"
max_length = 1000
allow_leading_dash = true
[commands.steps.args.steps]
type = "string"

[commands.stubborn]
description = "Ignores SIGTERM and keeps a child; only SIGKILL to the group ends both."
argv = ["{python}", "-u", "-c", '''
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
deaf = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"
child = subprocess.Popen([sys.executable, "-c", deaf])
print("pids", __import__("os").getpid(), child.pid, flush=True)
time.sleep(600)
''']
kill_grace_seconds = 0.3

[commands.forever]
description = "Runs past its timeout."
argv = ["{python}", "-c", "import time; time.sleep(600)"]
timeout_seconds = 0.3

[commands.report]
description = "Says everything at the end."
argv = ["{python}", "-u", "-c", '''
import os, sys, time
print('first part', flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
print('last part')
''', "{flag}"]
output = "final"
[commands.report.args.flag]
type = "string"
max_length = 1000
allow_leading_dash = true

[commands.tight]
description = "Writes a lot under a 64-byte cap."
argv = ["{python}", "-c", "print('x' * 500 + 'THE END')"]
output_limit_bytes = 64

[commands.unbounded]
description = "No cap at all."
argv = ["{python}", "-c", "print('y' * 3000)"]
output_limit_bytes = 0
"""


@pytest.fixture
def commands_file(tmp_path: Path) -> Path:
    path = tmp_path / "commands.toml"
    path.write_text(COMMANDS, encoding="utf-8")
    return path


@pytest.fixture
def task_settings() -> dict[str, Any]:
    """Override in a module to change the task settings of its app."""
    return {}


@pytest.fixture
def app_config(database_url: str, commands_file: Path, task_settings: dict[str, Any]) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "commands_file": str(commands_file),
        **task_settings,
    }
