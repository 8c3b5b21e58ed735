"""`run_command`'s producer: a declared argv in its own process group, never through a shell."""

from __future__ import annotations

import codecs
import contextlib
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..domain.commands import CommandsFile, CommandSpec, argv, parse_commands, progress_of
from .producers import Ending, Sink

logger = logging.getLogger(__name__)

KIND = "command"
READ_BYTES = 65536
DEMO_COMMANDS = Path(__file__).with_name("demo_commands.toml")


@dataclass(frozen=True)
class DeclaredCommands:
    """The operator's declarations and the folder relative working folders start from."""

    commands: CommandsFile
    folder: Path


def load_commands(path: Path | None) -> DeclaredCommands:
    """The commands file, or no commands at all when none is set."""
    if path is None:
        return DeclaredCommands(CommandsFile(), Path.cwd())
    text = path.read_text(encoding="utf-8")
    return DeclaredCommands(parse_commands(text, str(path)), path.resolve().parent)


class CommandProducer:
    kind = KIND

    def __init__(self, declared: DeclaredCommands, environ: Mapping[str, str] | None = None) -> None:
        self.declared = declared
        self.environ = dict(os.environ if environ is None else environ)

    def run(self, spec: Mapping[str, Any], sink: Sink) -> Ending:
        name = str(spec.get("command"))
        command = self.declared.commands.commands.get(name)
        if command is None:
            return Ending("failed", f"this host declares no command {name!r}")
        values = dict(spec.get("values") or {})
        cwd = Path(command.cwd)
        if not cwd.is_absolute():
            cwd = self.declared.folder / cwd
        env = {key: self.environ[key] for key in command.env if key in self.environ}
        env.update(command.set_env)
        try:
            process = subprocess.Popen(
                argv(command, values, sys.executable),
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so a stop reaches every child
                close_fds=True,
            )
        except OSError as exc:
            return Ending("failed", f"could not start: {exc.strerror or exc}")
        return _Run(process, command, sink).wait()


class _Run:
    """One running process: its output pump, its deadline and its stop."""

    def __init__(self, process: subprocess.Popen[bytes], command: CommandSpec, sink: Sink) -> None:
        self.process = process
        self.command = command
        self.sink = sink
        self.wake = threading.Event()
        self.pattern = re.compile(command.progress) if command.progress else None
        self.pump = threading.Thread(target=self._pump, name=f"output-{process.pid}", daemon=True)

    def wait(self) -> Ending:
        self.pump.start()
        threading.Thread(target=self._wait_exit, daemon=True).start()
        self.sink.on_cancel(self.wake.set)
        deadline = time.monotonic() + self.command.timeout_seconds
        ending: Ending | None = None
        while self.process.poll() is None:
            self.wake.wait(max(0.0, deadline - time.monotonic()))
            self.wake.clear()
            if self.process.poll() is not None:
                break
            if self.sink.cancelled:
                self._stop()
                ending = Ending("cancelled")
            elif time.monotonic() >= deadline:
                self._stop()
                ending = Ending("failed", f"timed out after {self.command.timeout_seconds:g} s")
        self._signal(signal.SIGKILL)  # children left behind by a leader that exited
        self.pump.join(5)
        return ending or _exit_ending(self.process.returncode)

    def _wait_exit(self) -> None:
        self.process.wait()
        self.wake.set()

    def _stop(self) -> None:
        """SIGTERM to the whole group, then SIGKILL once the grace period is over."""
        self._signal(signal.SIGTERM)
        try:
            self.process.wait(self.command.kill_grace_seconds)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL)
            self.process.wait()

    def _signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)

    def _pump(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        line = ""
        fd = stream.fileno()
        while True:
            try:
                data = os.read(fd, READ_BYTES)
            except OSError:
                data = b""
            text = decoder.decode(data, final=not data)
            if text:
                self.sink.write(text)
                if self.pattern is not None:
                    line = self._progress(line + text)
            if not data:
                break
        stream.close()

    def _progress(self, text: str) -> str:
        """Report the last progress line among the complete lines; keep the unfinished one."""
        assert self.pattern is not None
        *lines, rest = text.split("\n")
        for complete in reversed(lines):
            found = progress_of(self.pattern, complete)
            if found is not None:
                self.sink.progress(*found)
                break
        return rest[-500:]


def _exit_ending(code: int | None) -> Ending:
    if code == 0:
        return Ending("completed", "exit status 0")
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return Ending("failed", f"killed by {name}")
    return Ending("failed", f"exit status {code}")
