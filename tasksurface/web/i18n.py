"""Product chrome in English and Simplified Chinese; the model's own text is shown as written.

The language comes from a `lang` cookie set by the switch, else from the browser's
Accept-Language. Catalogs live in tasksurface/translations and compile at install.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import Flask, current_app, has_request_context, redirect, request
from flask_babel import Babel, get_locale, get_translations, gettext
from werkzeug.wrappers import Response as BaseResponse

LANGUAGES = {"en": "English", "zh": "简体中文"}
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
COOKIE = "lang"
CATALOGS = Path(__file__).resolve().parents[1] / "translations"


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en") or "en"


def N_(message: str) -> str:
    """Marks a message for the catalog; it is translated where it is used."""
    return message


REASONS = {
    "invalid-submission": N_("please check the highlighted fields"),
    "not-open": N_("this panel is no longer open"),
    "stale": N_("another panel has replaced this one"),
    "submission-pending": N_("an answer is already on its way"),
}
"""Why a submission or dismissal was not taken; the page script has them as `reason:<code>`."""
SCRIPT_CHROME = (
    N_("Submitted: the agent is reading it…"),
    N_("Submitted: waiting for the agent to read it…"),
    N_("Not sent: %(reason)s."),
    N_("Submitted."),
    N_("Panel dismissed."),
    N_("connection problem"),
    N_("%(label)s, position %(position)s of %(total)s"),
    N_("Expand"),
    N_("Collapse"),
    N_("Your answer was not delivered; you can send it again."),
    N_("Reconnecting…"),
    N_("The server is restarting. Reconnecting…"),
    N_("Not sent."),
    N_("The agent asks a question."),
    N_("Write an answer or pick one of the suggestions."),
    N_("%(s)s s"),
    N_("%(m)s min %(s)s s"),
    N_("%(h)s h %(m)s min"),
    N_("Background task “%(label)s”: %(status)s"),
    N_("Background task started: %(label)s"),
    N_("(no output yet)"),
    N_("Another field now applies: %(label)s"),
    N_("Sent to the agent: %(label)s"),
    N_("Withdrawn."),
    N_("Too late: the agent has it already."),
    N_("%(shown)s of %(total)s options"),
    N_("%(name)s is waiting for you"),
    N_("Full height"),
    N_("Normal height"),
    N_("This part could not start; it still works as a plain form."),
    N_("Retry"),
    N_("Other"),
    N_("%(shown)s of %(total)s shown"),
    N_("On the shortlist"),
    N_("Shortlist"),
    N_("Move %(label)s up"),
    N_("Move %(label)s down"),
    N_("Remove %(label)s from the stops"),
    N_("%(label)s added as stop %(position)s"),
    N_("%(label)s removed from the stops"),
)
"""What the page script shows; the server hands it over translated, keyed by the English text."""


def reason_text(reason: str) -> str:
    """Why a submission or dismissal was not taken, in words for the person at the dock."""
    message = REASONS.get(reason)
    return gettext(message) if message else reason


def script_strings() -> dict[str, str]:
    """The page script's words in the page's language; the catalogues are fixed while the
    process runs, so each language's are looked up once."""
    from .problems import script_problem_strings

    language = str(get_locale() or "en")
    looked_up: dict[str, dict[str, str]] = current_app.extensions.setdefault("tasksurface.script_strings", {})
    if language not in looked_up:
        chrome = {message: str(gettext(message)) for message in SCRIPT_CHROME}
        reasons = {f"reason:{code}": str(gettext(text)) for code, text in REASONS.items()}
        looked_up[language] = {**chrome, **reasons, **script_problem_strings()}
    return looked_up[language]


def _switch_language() -> BaseResponse:
    lang = request.form.get("lang", "")
    target = request.form.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"  # only paths on this site: the switch is no open redirect
    response = redirect(target, 303)
    if lang in LANGUAGES:
        remember_language(response, lang)
    return response


def remember_language(response: BaseResponse, lang: str) -> None:
    """Kept like the identity cookie, so the choice also holds inside a cross-site frame."""
    config = current_app.config
    response.set_cookie(
        COOKIE,
        lang,
        max_age=400 * 24 * 3600,
        samesite=config["SESSION_COOKIE_SAMESITE"],
        secure=bool(config["SESSION_COOKIE_SECURE"]) or request.is_secure,
        partitioned=bool(config["SESSION_COOKIE_PARTITIONED"]),
        httponly=True,
    )


def compiled_catalogs(instance: Path) -> Path:
    """Compile the shipped .po catalogs into the instance folder when they are new or changed,
    so neither an install step nor a writable package folder is needed."""
    target = instance / "translations"
    for po in CATALOGS.glob("*/LC_MESSAGES/messages.po"):
        mo = target / po.relative_to(CATALOGS).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalog = read_po(source)
        partial = mo.with_suffix(".mo.partial")
        with partial.open("wb") as compiled:
            write_mo(compiled, catalog)
        partial.replace(mo)  # atomic: a second process never reads half a catalog
    return target


_TRANSLATIONS = "tasksurface.translations"


def request_translations() -> NullTranslations:
    """The catalog of this request's language, looked up once per request: Flask-Babel resolves the
    context, domain and locale again on every call, and a chat page makes over a hundred. A
    request has one language (a message built per language gets a request of its own), so the
    first answer holds for the rest of it."""
    if not has_request_context():
        outside: NullTranslations = get_translations()
        return outside
    environ = request.environ
    found: NullTranslations | None = environ.get(_TRANSLATIONS)
    if found is None:
        found = environ[_TRANSLATIONS] = get_translations()
    return found


def init_i18n(app: Flask, instance: Path) -> None:
    Babel(
        app, locale_selector=select_locale, default_translation_directories=str(compiled_catalogs(instance))
    )
    # Templates translate through the request's own catalog (the same calls Flask-Babel installs).
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: request_translations().ugettext(s),
        ngettext=lambda s, p, n: request_translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: request_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: request_translations().unpgettext(c, s, p, n),
    )
    app.add_url_rule("/language", "language", _switch_language, methods=["POST"])

    @app.context_processor
    def _language() -> dict[str, object]:
        current = str(get_locale() or "en")
        return {
            "languages": LANGUAGES,
            "current_language": current,
            "html_lang": HTML_LANG.get(current, "en"),
            "reason_text": reason_text,
            "script_strings": script_strings,
        }
