"""Credential redaction: every kind of secret is masked, ordinary text and ids are not."""

from __future__ import annotations

import time

import pytest

from tasksurface.domain.ids import CallId
from tasksurface.domain.model import TaskSurfaceModelV1
from tasksurface.domain.parser import parse_model
from tasksurface.domain.question import OpenQuestion
from tasksurface.domain.redaction import MASK, redact, redact_model, redact_question, secrets_in

from .builders import minimal_model
from .builders_v2 import choice2, number_field, parsed_v2, review_field, text2, v2_model

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ik1laSJ9"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", f"key: {MASK}"),
        ("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv_xyz", MASK),
        ("id AKIAIOSFODNN7EXAMPLE here", f"id {MASK} here"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            f"aws_secret_access_key = {MASK}",
        ),
        ("AIzaSyA-1234567890abcdefghijklmnopqrstu", MASK),
        ("ghp_" + "a1B2" * 9, MASK),
        ("github_pat_11ABCDEFG0123456789_abcdefghijkl", MASK),
        ("glpat-abcdefghij0123456789", MASK),
        ("xoxb-1234567890-abcdefghij", MASK),
        ("https://hooks.slack.com/services/T000/B000/XXXX", MASK),
        ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", MASK),
        ("hf_" + "a" * 34, MASK),
        ("npm_" + "a" * 36, MASK),
        ("pypi-AgEIcHlwaS5vcmc" + "x" * 40, MASK),
        ("AccountKey=" + "A" * 86 + "==;EndpointSuffix=core", f"AccountKey={MASK};EndpointSuffix=core"),
        ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz.0123", f"Authorization: Bearer {MASK}"),
        (f"token {JWT} end", f"token {MASK} end"),
        (f"before\n{PEM}\nafter", f"before\n{MASK}\nafter"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\nMIIEdef", MASK),
        ("postgres://mei:hunter2@db.internal/app", f"postgres://mei:{MASK}@db.internal/app"),
        ("https://user:p%40ss@example.org/x", f"https://user:{MASK}@example.org/x"),
    ],
)
def test_each_kind_of_credential_is_masked(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "surface ts_6_vICHDE0FVwrtQr and call call_RuuZILwJqPsZZgcm",
        "sk-short",
        "https://example.org/path?x=1",
        "mailto:mei@example.org",
        "Bearer of good news",
        "AKIA is a prefix",
        "eyJ alone",
        "BEGIN PRIVATE KEY without dashes",
        "中文和 emoji 😀",
        "",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_overlapping_findings_merge_into_one_mask() -> None:
    text = "Bearer " + JWT
    assert redact(text) == f"Bearer {MASK}"
    assert len(secrets_in(text)) == 1


def test_redaction_is_linear_on_hostile_input() -> None:
    text = "eyJ" * 30_000 + "sk-" * 30_000 + "a:" * 30_000
    started = time.perf_counter()
    redact(text)
    assert time.perf_counter() - started < 1.0


def test_a_model_is_redacted_in_its_display_strings_only() -> None:
    secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    data = v2_model(
        text2("t", f"Label {secret}", help=secret, placeholder=secret, initial=secret),
        choice2(
            options=[{"id": "ghp_" + "a" * 36, "label": secret, "detail": secret}], initial="ghp_" + "a" * 36
        ),
        number_field(unit=secret),
        review_field(path=secret, before=f"key = {secret}\n", after="key = env\n"),
        title=secret,
        description=secret,
        sections=[
            {
                "id": "s",
                "title": secret,
                "blocks": [
                    {"kind": "markdown", "text": secret},
                    {"kind": "table", "columns": [{"id": "id", "label": secret}], "rows": [{"id": secret}]},
                ],
            }
        ],
        submit={"actions": [{"id": "go", "label": secret}]},
        actions=[{"id": "act", "label": secret}],
    )
    model = parsed_v2(data)
    redacted = redact_model(model).normalised()
    assert secret not in str(redacted)
    assert redacted["fields"][1]["options"][0]["id"] == "ghp_" + "a" * 36  # ids are not display text
    assert redacted["fields"][1]["initial"] == "ghp_" + "a" * 36
    assert redacted["fields"][0]["initial"] == MASK  # a text's initial value is shown
    assert redacted["sections"][0]["blocks"][1]["rows"] == [{"id": MASK}]
    assert model.normalised()["title"] == secret  # the parsed model itself is untouched


def test_a_clean_model_comes_back_as_itself() -> None:
    model = parsed_v2(v2_model(text2()))
    assert redact_model(model) is model


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("eyJ09abcdef.eyJ09abcdef.09abcdef", MASK),
        ("sk-09" + "a" * 18, MASK),
        ("AKIA09ABCDEFGHIJKLMN", MASK),
        ("aws_secret_access_key=09" + "a" * 38, f"aws_secret_access_key={MASK}"),
        ("AIza09" + "b" * 33, MASK),
        ("ghp_09" + "c" * 34, MASK),
        ("github_pat_09" + "d" * 20, MASK),
        ("glpat-09" + "e" * 18, MASK),
        ("xoxb-09" + "f" * 8, MASK),
        ("https://hooks.slack.com/services/09", MASK),
        ("rk_test_09" + "g" * 14, MASK),
        ("hf_09" + "h" * 28, MASK),
        ("npm_09" + "i" * 34, MASK),
        ("pypi-AgEIcHlwaS5vcmc09" + "j" * 18, MASK),
        ("AccountKey=09" + "k" * 38 + ";x", f"AccountKey={MASK};x"),
        ("AccountKey=" + "k" * 40 + "===", f"AccountKey={MASK}="),
        ("Bearer 09" + "l" * 18, f"Bearer {MASK}"),
        ("s09://u:pw@h", f"s09://u:{MASK}@h"),
        ("-----BEGIN X509 PRIVATE KEY-----\nab\n-----END X509 PRIVATE KEY-----\nafter.", f"{MASK}\nafter."),
        ("-----BEGIN PRIVATE KEY-----\nMII09ab\n.", f"{MASK}."),
    ],
)
def test_each_credential_is_masked_at_its_shortest_with_every_digit_it_may_hold(
    text: str, expected: str
) -> None:
    """Each secret is as short as its shape allows and holds a 0 and a 9, so a detector that
    wanted one character more, or lost a digit from its class, would let it through."""
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "eyJ09abcde.eyJ09abcdef.09abcdef",
        "sk-09" + "a" * 17,
        "AKIA09ABCDEFGHIJKLM",
        "aws_secret_access_key=09" + "a" * 37,
        "AIza09" + "b" * 32,
        "ghp_09" + "c" * 33,
        "github_pat_09" + "d" * 19,
        "glpat-09" + "e" * 17,
        "xoxb-09" + "f" * 7,
        "rk_test_09" + "g" * 13,
        "hf_09" + "h" * 27,
        "npm_09" + "i" * 33,
        "pypi-AgEIcHlwaS5vcmc09" + "j" * 17,
        "AccountKey=09" + "k" * 37,
        "Bearer 09" + "l" * 17,
    ],
)
def test_one_character_short_of_its_shape_is_no_credential(text: str) -> None:
    assert redact(text) == text


def test_a_version_one_model_is_redacted_and_stays_version_one() -> None:
    secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    model = parse_model({**minimal_model(), "title": f"Deploy with {secret}"})
    redacted = redact_model(model)
    assert isinstance(redacted, TaskSurfaceModelV1)
    assert redacted.title == f"Deploy with {MASK}"


def test_only_a_text_field_s_initial_value_is_display_text() -> None:
    secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    model = parsed_v2(
        v2_model(
            text2("t", "T", initial=secret, pattern=secret),
            text2("u", "U", visibleWhen={"field": "t", "in": [secret]}),
        )
    )
    fields = redact_model(model).normalised()["fields"]
    assert (fields[0]["initial"], fields[0]["pattern"]) == (MASK, secret)
    assert fields[1]["visibleWhen"] == {"field": "t", "in": [secret]}


def test_a_question_is_shown_with_its_secrets_masked() -> None:
    secret = "ghp_" + "a" * 36
    question = OpenQuestion(CallId("call_abcdefgh"), 4, f"Use {secret}?", (f"yes, {secret}", "no"))
    assert redact_question(question) == OpenQuestion(
        CallId("call_abcdefgh"), 4, f"Use {MASK}?", (f"yes, {MASK}", "no")
    )
