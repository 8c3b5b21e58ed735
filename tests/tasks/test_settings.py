"""Task settings that do not fit stop the start, saying which and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasksurface.config import ConfigurationError, all_env_names
from tasksurface.domain.commands import InvalidCommandsFile
from tasksurface.web.factory import create_app


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in all_env_names():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    return monkeypatch


def test_a_default_wait_above_the_maximum_refuses_to_start(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("TASKSURFACE_TASK_WAIT_TIMEOUT_MS", "700000")
    with pytest.raises(ConfigurationError) as refusal:
        create_app()
    assert str(refusal.value) == (
        "invalid setting: TASKSURFACE_TASK_WAIT_TIMEOUT_MS (700000) is above "
        "TASKSURFACE_TASK_MAX_WAIT_TIMEOUT_MS (600000); the default wait must fit within the maximum"
    )


@pytest.mark.parametrize(
    ("name", "value", "accepts"),
    [
        ("TASKSURFACE_TASKS", "threads", "'off', 'embedded' or 'celery'"),
        ("TASKSURFACE_TASK_MAX_RUNNING", "0", "greater than 0"),
        ("TASKSURFACE_TASK_HOST_TIMEOUT", "-1", "greater than 0"),
        ("TASKSURFACE_TASK_OUTPUT_RETAIN_BYTES", "100", "greater than or equal to 4096"),
        ("TASKSURFACE_CELERY_QUEUE", "a queue", "should match pattern"),
    ],
)
def test_a_wrong_task_setting_refuses_to_start_naming_it(
    clean_env: pytest.MonkeyPatch, name: str, value: str, accepts: str
) -> None:
    clean_env.setenv(name, value)
    with pytest.raises(ConfigurationError) as refusal:
        create_app()
    assert str(refusal.value).startswith(f"invalid setting: {name}") and accepts in str(refusal.value)


def test_a_commands_file_that_does_not_fit_refuses_to_start_saying_where(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    commands = tmp_path / "commands.toml"
    commands.write_text('[commands.x]\ndescription = "d"\nargv = ["sh", "-c", "{script}"]\n')
    clean_env.setenv("TASKSURFACE_COMMANDS_FILE", str(commands))
    clean_env.setenv("TASKSURFACE_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with pytest.raises(InvalidCommandsFile) as refusal:
        create_app()
    assert str(commands) in str(refusal.value) and "{script}" in str(refusal.value)
    assert not (tmp_path / "db.sqlite3").exists()  # refused before any other I/O
