"""Settings, named as DESIGN.md's configuration table names them; read once at start."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from .domain.limits import Limits

DEFAULT_INSTANCE_PATH = Path(__file__).resolve().parents[1] / "instance"
ModelBackendName = Literal["scripted", "openai"]
ToolMode = Literal["native", "both", "code"]


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    database_url: str
    model: ModelBackendName = "scripted"
    tool_mode: ToolMode = "native"
    secret_key: str
    auto_migrate: bool = True
    limits: Limits = Limits()
    history_page: int = 50
    """Transcript events per page; older pages load on demand."""
    openai_base_url: str | None = None
    """`OPENAI_BASE_URL`: the OpenAI-compatible endpoint; unset means OpenAI's own."""
    openai_api_key: SecretStr | None = None
    """`OPENAI_API_KEY`; a secret, so it never shows in a repr or a log line."""
    openai_model: str | None = None
    """`TASKSURFACE_OPENAI_MODEL`: the provider's model name."""
    model_timeout: float = Field(default=60.0, gt=0)
    """`TASKSURFACE_MODEL_TIMEOUT`: seconds to connect, and to wait for each piece of a reply."""
    model_max_retries: int = Field(default=2, ge=0, le=10)
    """`TASKSURFACE_MODEL_MAX_RETRIES`: retries, with backoff, after a timeout, 408, 409, 429 or 5xx."""
    task_surface: bool = True
    """`TASKSURFACE_TASK_SURFACE=0` turns the feature off: not advertised, not drawn, log kept."""
    environment: Literal["development", "production"] = "development"
    """In production the signing key must be set explicitly."""
    identity_header: str | None = None
    """A request header set by a trusted auth proxy that names the user; off by default."""
    frame_ancestors: str = "'self'"
    """Who may embed the page (the CSP frame-ancestors allow-list)."""
    max_body_bytes: int = 1024 * 1024


def instance_path() -> Path:
    return Path(os.environ.get("TASKSURFACE_INSTANCE_PATH", DEFAULT_INSTANCE_PATH))


def database_url() -> str:
    """`TASKSURFACE_DATABASE_URL`, else a SQLite file in the instance folder."""
    url = os.environ.get("TASKSURFACE_DATABASE_URL")
    if url:
        return url
    folder = instance_path()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tasksurface.sqlite3'}"


def development_secret_key() -> str:
    """Generated once and kept in the instance folder, so a restart keeps everyone's identity."""
    folder = instance_path()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


_MODEL_SETTINGS = (
    ("OPENAI_BASE_URL", "openai_base_url"),
    ("OPENAI_API_KEY", "openai_api_key"),
    ("TASKSURFACE_OPENAI_MODEL", "openai_model"),
    ("TASKSURFACE_MODEL_TIMEOUT", "model_timeout"),
    ("TASKSURFACE_MODEL_MAX_RETRIES", "model_max_retries"),
)


def _flag(value: str) -> bool:
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def load_settings(overrides: Mapping[str, Any] | None = None) -> Settings:
    """Defaults, then the environment, then explicit overrides (tests, embedding apps)."""
    env = os.environ
    values: dict[str, Any] = {}
    if "TASKSURFACE_MODEL" in env:
        values["model"] = env["TASKSURFACE_MODEL"]
    if "TASKSURFACE_TOOL_MODE" in env:
        values["tool_mode"] = env["TASKSURFACE_TOOL_MODE"]
    if "TASKSURFACE_TASK_SURFACE" in env:
        values["task_surface"] = _flag(env["TASKSURFACE_TASK_SURFACE"])
    if "TASKSURFACE_AUTO_MIGRATE" in env:
        values["auto_migrate"] = _flag(env["TASKSURFACE_AUTO_MIGRATE"])
    if "TASKSURFACE_SECRET_KEY" in env:
        values["secret_key"] = env["TASKSURFACE_SECRET_KEY"]
    for name, key in _MODEL_SETTINGS:
        if env.get(name):
            values[key] = env[name]
    for name, key in (
        ("TASKSURFACE_ENV", "environment"),
        ("TASKSURFACE_IDENTITY_HEADER", "identity_header"),
        ("TASKSURFACE_FRAME_ANCESTORS", "frame_ancestors"),
        ("TASKSURFACE_MAX_BODY_BYTES", "max_body_bytes"),
    ):
        if env.get(name):
            values[key] = env[name]
    values.update(overrides or {})
    if "database_url" not in values:
        values["database_url"] = database_url()
    if "secret_key" not in values:
        if values.get("environment") == "production":
            raise InsecureConfiguration(
                "set TASKSURFACE_SECRET_KEY: production never uses the development key"
            )
        values["secret_key"] = development_secret_key()
    return Settings(**values)


class InsecureConfiguration(RuntimeError):
    """A setting that would make the deployment unsafe; the app refuses to start."""
