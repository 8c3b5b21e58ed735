"""Settings: one typed field per setting, read from the environment once at start.

The environment names are the ones DESIGN.md and the README's table give; a value that does
not fit its field stops the start with the setting's name and what it accepts.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from .domain.embedding import check_frame_ancestors
from .domain.limits import Limits

DEFAULT_INSTANCE_PATH = Path(__file__).resolve().parents[1] / "instance"
ENV_PREFIX = "TASKSURFACE_"
ModelBackendName = Literal["scripted", "openai"]
ToolMode = Literal["native", "both", "code"]
TasksMode = Literal["off", "embedded", "celery"]
SECRET_FIELDS = frozenset({"openai_api_key", "secret_key", "embed_secret", "webhook_secret"})
WEBHOOK_SECRET = re.compile(r"^whsec_[A-Za-z0-9+/]{32,}={0,2}$")
DEMO_COMMANDS_FILE = Path(__file__).resolve().parent / "tasks" / "demo_commands.toml"


class Settings(BaseSettings):
    """Every setting of a deployment; tests and embedding apps pass field names as overrides."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        extra="forbid",
        frozen=True,
        env_ignore_empty=True,
        populate_by_name=True,
    )

    instance_path: Path = DEFAULT_INSTANCE_PATH
    """Folder for the SQLite file, the development key and compiled catalogs."""
    database_url: str = ""
    """SQLAlchemy URL; empty means a SQLite file in the instance folder."""
    model: ModelBackendName = "scripted"
    tool_mode: ToolMode = "native"
    secret_key: str = ""
    """Signs the identity cookie; empty means the development key kept in the instance folder."""
    environment: Literal["development", "production"] = Field(
        "development", validation_alias=AliasChoices("TASKSURFACE_ENV", "environment")
    )
    """In production the signing key must be set explicitly."""
    auto_migrate: bool = True
    limits: Limits = Limits()
    """`TASKSURFACE_LIMITS`: a JSON object of the limits to change; the rest keep their defaults."""
    history_page: int = Field(50, gt=0, le=10_000)
    """Transcript events per page; older pages load on demand."""
    agent_name: str = Field("Agent", min_length=1, max_length=80, pattern=r"\S")
    """The agent's display name on every panel and question; the operator's word, never the model's."""
    media_folder: Path | None = None
    """Images that panels may show (by relative path); unset means no images are served."""
    media_max_bytes: int = Field(8 * 1024 * 1024, gt=0)
    """The largest image file served from the media folder."""
    map_tiles: str | None = Field(None, pattern=r"^https://[^/\s{}]+/\S*\{z\}\S*\{x\}\S*\{y\}\S*$")
    """An https tile URL template with {z}, {x} and {y}; unset means maps draw without tiles."""
    map_attribution: str | None = Field(None, max_length=200)
    """The tile provider's attribution, shown under every map that uses its tiles."""
    openai_base_url: str | None = Field(
        None, validation_alias=AliasChoices("OPENAI_BASE_URL", "openai_base_url")
    )
    """The OpenAI-compatible endpoint; unset means OpenAI's own."""
    openai_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("OPENAI_API_KEY", "openai_api_key")
    )
    """A secret, so it never shows in a repr or a log line."""
    openai_model: str | None = None
    """The provider's model name."""
    model_timeout: float = Field(default=60.0, gt=0)
    """Seconds to connect, and to wait for each piece of a reply."""
    model_max_retries: int = Field(default=2, ge=0, le=10)
    """Retries, with backoff, after a timeout, 408, 409, 429 or 5xx."""
    scripted_pause: float = Field(default=0.0, ge=0, le=5)
    """Seconds the scripted agent waits between the pieces it streams (text and tool-call
    arguments); 0 answers at once, in one piece."""
    task_surface: bool = True
    """`0` turns the feature off: not advertised, not drawn, log kept."""
    identity_header: str | None = None
    """A request header set by a trusted auth proxy that names the user; off by default."""
    frame_ancestors: str = "'self'"
    """Who may embed the page (the CSP frame-ancestors allow-list); another origin turns embedding on."""
    embed_secret: SecretStr | None = Field(None, min_length=32)
    """The HS256 key a team's backend signs its users' tokens with; unset means `/embed` takes none."""
    webhook_url: str | None = Field(None, pattern=r"^https?://[^\s/?#]+(/\S*)?$")
    """The one URL events are posted to; unset means no events go out."""
    webhook_secret: SecretStr | None = None
    """The Standard Webhooks signing secret (`whsec_` and at least 24 random bytes in base64)."""
    webhook_max_backoff: float = Field(600.0, gt=0, le=86_400)
    """The longest wait, in seconds, between two delivery attempts of one event."""
    max_body_bytes: int = Field(1024 * 1024, gt=0)
    tasks: TasksMode = "embedded"
    """Background tasks: `embedded` runs them in the web process, `celery` on workers, `off` not at all."""
    commands_file: Path = DEMO_COMMANDS_FILE
    """The TOML file of commands `run_command` may run; the shipped demo commands by default."""
    task_wait_timeout_ms: int = Field(30_000, ge=0)
    """How long `task_output` with `wait: true` waits when the model names no timeout."""
    task_max_wait_timeout_ms: int = Field(600_000, ge=0)
    """The longest wait a model may ask for; longer requests wait this long."""
    task_max_running: int = Field(16, gt=0, le=1000)
    """Queued or running tasks one session may have at once."""
    task_host_timeout: float = Field(20.0, gt=0, le=3600)
    """Seconds without a heartbeat after which a running task's host counts as stopped."""
    task_output_retain_bytes: int = Field(1024 * 1024, ge=4096)
    """Output kept per task; the oldest goes first, and a reader is told that some was dropped."""
    celery_broker_url: str = "redis://127.0.0.1:6379/0"
    """The Redis broker of `TASKSURFACE_TASKS=celery`."""
    celery_queue: str = Field("tasksurface", pattern=r"^[A-Za-z0-9_.-]{1,100}$")
    """The queue workers take tasks from; also the prefix of every Redis key, so deployments can share one."""

    port: int = Field(8000, ge=1, le=65535, validation_alias=AliasChoices("PORT", "port"))
    """The port the production server listens on."""
    web_concurrency: int = Field(
        1, ge=1, le=64, validation_alias=AliasChoices("WEB_CONCURRENCY", "web_concurrency")
    )
    """Server processes of one production server; more than one needs PostgreSQL."""
    web_threads: int = Field(1000, ge=4, le=10_000)
    """Threads per server process: every open page holds one for its websocket."""
    shutdown_grace: int = Field(30, gt=0, le=3600)
    """Seconds a stopping server process gives requests in flight before it exits."""
    bind_host: str = Field("127.0.0.1", min_length=1, max_length=255)
    """The address the production server listens on (`0.0.0.0` for every interface)."""

    @field_validator("frame_ancestors")
    @classmethod
    def _listed_sources(cls, value: str) -> str:
        return check_frame_ancestors(value)

    @field_validator("webhook_secret")
    @classmethod
    def _standard_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not WEBHOOK_SECRET.match(value.get_secret_value()):
            raise ValueError("expected whsec_ followed by at least 24 random bytes in base64")
        return value

    @model_validator(mode="after")
    def _embedding_fits(self) -> Settings:
        if (self.webhook_url is None) != (self.webhook_secret is None):
            raise ValueError(
                "TASKSURFACE_WEBHOOK_URL and TASKSURFACE_WEBHOOK_SECRET go together: set both or neither"
            )
        if self.embed_secret is not None and self.identity_header:
            raise ValueError(
                "TASKSURFACE_EMBED_SECRET and TASKSURFACE_IDENTITY_HEADER both name users; choose one"
            )
        return self

    @model_validator(mode="after")
    def _wait_within_maximum(self) -> Settings:
        if self.task_wait_timeout_ms > self.task_max_wait_timeout_ms:
            raise ValueError(
                f"TASKSURFACE_TASK_WAIT_TIMEOUT_MS ({self.task_wait_timeout_ms}) is above "
                f"TASKSURFACE_TASK_MAX_WAIT_TIMEOUT_MS ({self.task_max_wait_timeout_ms}); "
                "the default wait must fit within the maximum"
            )
        return self


def env_names(name: str) -> tuple[str, ...]:
    """The environment variable(s) an operator sets for the field `name`."""
    info = Settings.model_fields[name]
    alias = info.validation_alias
    if isinstance(alias, AliasChoices):
        return tuple(str(choice) for choice in alias.choices if str(choice).isupper())
    return (ENV_PREFIX + name.upper(),)


def all_env_names() -> list[str]:
    return [env for name in Settings.model_fields for env in env_names(name)]


class ConfigurationError(ValueError):
    """A setting whose value does not fit; the app refuses to start and says which and why."""


class InsecureConfiguration(ConfigurationError):
    """A setting that would make the deployment unsafe; the app refuses to start."""


def _explain(error: ValidationError) -> ConfigurationError:
    lines = []
    for problem in error.errors():
        if not problem["loc"]:  # a rule across settings: its message names them
            lines.append(str(problem["msg"]).removeprefix("Value error, "))
            continue
        field = str(problem["loc"][0]) if problem["loc"] else ""
        names = env_names(field) if field in Settings.model_fields else (field,)
        where = ".".join(str(part) for part in problem["loc"][1:])
        setting = names[0] + (f" ({where})" if where else "")
        given = problem.get("input")
        shown = "" if isinstance(given, dict) or field in SECRET_FIELDS else f" (got {given!r})"
        lines.append(f"{setting}: {problem['msg']}{shown}")
    return ConfigurationError("invalid setting: " + "; ".join(lines))


def instance_path() -> Path:
    """Read before the rest, so the Flask app knows its folder."""
    return Path(os.environ.get("TASKSURFACE_INSTANCE_PATH") or DEFAULT_INSTANCE_PATH)


def development_secret_key(folder: Path) -> str:
    """Generated once and kept in the instance folder, so a restart keeps everyone's identity."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


def database_url() -> str:
    """The configured database, for the schema tools that need nothing else (Alembic's CLI)."""
    return load_settings(derive_secret=False).database_url


def load_settings(overrides: Mapping[str, Any] | None = None, *, derive_secret: bool = True) -> Settings:
    """Defaults, then the environment, then explicit overrides (tests, embedding apps)."""
    try:
        settings = Settings(**dict(overrides or {}))
    except ValidationError as exc:
        raise _explain(exc) from None
    except SettingsError as exc:  # a structured setting that is not JSON
        field = str(exc).split('"')[1] if '"' in str(exc) else ""
        name = env_names(field)[0] if field in Settings.model_fields else field
        raise ConfigurationError(f"invalid setting: {name}: expected a JSON object") from None
    derived: dict[str, Any] = {}
    if not settings.database_url:
        settings.instance_path.mkdir(parents=True, exist_ok=True)
        derived["database_url"] = f"sqlite:///{settings.instance_path / 'tasksurface.sqlite3'}"
    if not settings.secret_key and derive_secret:
        if settings.environment == "production":
            raise InsecureConfiguration(
                "set TASKSURFACE_SECRET_KEY: production never uses the development key"
            )
        derived["secret_key"] = development_secret_key(settings.instance_path)
    return settings.model_copy(update=derived) if derived else settings
