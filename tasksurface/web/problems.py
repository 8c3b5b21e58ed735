"""Refusals in the reader's language: each typed code has one sentence, its figures filled in.

The domain's English messages stay the API's; the page says the same thing through the
catalog, beside the field, with and without JavaScript (the script gets these templates
through `script_strings()`, keyed `problem:<code>`).
"""

from __future__ import annotations

from flask_babel import gettext

from ..domain.refusals import ActionCode, Problem, RecoveryCode, SubmissionCode
from .i18n import N_

PROBLEM_TEXT: dict[str, str] = {
    SubmissionCode.NOT_AN_OBJECT: N_("the answer could not be read"),
    SubmissionCode.UNKNOWN_FIELD: N_("this panel has no such field"),
    SubmissionCode.MISSING_VALUE: N_("a value is missing"),
    SubmissionCode.REQUIRED: N_("this field is required"),
    SubmissionCode.WRONG_TYPE: N_("this value does not fit the field"),
    SubmissionCode.UNKNOWN_OPTION: N_("that is not one of the options"),
    SubmissionCode.DUPLICATE_OPTION: N_("an option is chosen twice"),
    SubmissionCode.NOT_A_PERMUTATION: N_("the order must list every item exactly once"),
    SubmissionCode.TOO_LARGE: N_("the answer is too large to send"),
    SubmissionCode.NOTE: N_("the note is too long"),
    SubmissionCode.ID_CONFLICT: N_("this answer was already sent with other values"),
    SubmissionCode.NOT_AN_INTEGER: N_("enter a whole number"),
    SubmissionCode.BELOW_MINIMUM: N_("the smallest allowed is %(minimum)s"),
    SubmissionCode.ABOVE_MAXIMUM: N_("the largest allowed is %(maximum)s"),
    SubmissionCode.OFF_STEP: N_("use steps of %(step)s from %(base)s"),
    SubmissionCode.NOT_A_DATE: N_("enter a date as YYYY-MM-DD"),
    SubmissionCode.TOO_SHORT: N_("write at least %(minimum)s characters"),
    SubmissionCode.TOO_LONG: N_("write at most %(maximum)s characters"),
    SubmissionCode.INVALID_FORMAT: N_("this does not look like the expected kind of value"),
    SubmissionCode.PATTERN_MISMATCH: N_("this does not have the expected form"),
    SubmissionCode.TOO_FEW: N_("choose at least %(minimum)s"),
    SubmissionCode.TOO_MANY: N_("choose at most %(maximum)s"),
    SubmissionCode.HIDDEN_FIELD: N_("this field does not apply, so it is not sent"),
    SubmissionCode.UNKNOWN_HUNK: N_("this change is not part of the review"),
    SubmissionCode.UNDECIDED_HUNK: N_("%(undecided)s of %(total)s changes still need a decision"),
    SubmissionCode.ACTION_REQUIRED: N_("choose one of the buttons to submit"),
    SubmissionCode.UNKNOWN_ACTION: N_("that button is not part of this panel"),
    ActionCode.UNKNOWN: N_("that button is not part of this panel"),
    ActionCode.ID_CONFLICT: N_("this request was already sent with other values"),
}
FORMAT_TEXT = {
    "email": N_("enter an email address"),
    "url": N_("enter a web address starting with http:// or https://"),
}


def problem_text(problem: Problem) -> str:
    """The problem in the page's language; an unknown code keeps the domain's own words."""
    if problem.code == SubmissionCode.INVALID_FORMAT and problem.params.get("format") in FORMAT_TEXT:
        return str(gettext(FORMAT_TEXT[str(problem.params["format"])]))
    template = PROBLEM_TEXT.get(problem.code)
    if template is None:
        return problem.message
    return str(gettext(template, **{k: str(v) for k, v in problem.params.items()}))


REFUSAL_TEXT: dict[str, str] = {
    "internal-server-error": N_("the server could not complete this request"),
    "message-too-long": N_("the message is longer than this chat takes"),
    "empty-message": N_("the message is empty"),
    "reason-too-long": N_("the reason is too long"),
    "request-entity-too-large": N_("it is larger than this server takes"),
    "session-not-found": N_("this conversation is no longer available"),
    "cross-site-request": N_("requests from other sites are refused"),
}
"""Refused requests a person can meet from the page's own controls (its script builds the rest
correctly), in words for that person; any other code shows the server's own message."""


def refusal_text(code: str, message: str) -> str:
    """A refused request in the page's language; an unknown code keeps the server's words."""
    template = REFUSAL_TEXT.get(code)
    return str(gettext(template)) if template else message


def script_problem_strings() -> dict[str, str]:
    """The same templates for the page script, keyed `problem:<code>` and `refusal:<code>`."""
    found = {f"problem:{code}": gettext(text) for code, text in PROBLEM_TEXT.items()}
    found.update({f"problem:format:{name}": gettext(text) for name, text in FORMAT_TEXT.items()})
    found.update({f"refusal:{code}": gettext(text) for code, text in REFUSAL_TEXT.items()})
    return found


REPLAY_INCOMPLETE = N_(
    "Part of this conversation's history cannot be read, so it is not known whether a panel is open."
)
EXPIRY_REASONS = {
    "no-description": N_("the host that showed it kept no description of it"),
    "newer-version": N_("a newer version of Task Surface wrote it"),
    "invalid": N_("its stored description no longer validates"),
    "damaged": N_("its stored description is damaged"),
}


def recovery_text(problem: Problem) -> str:
    """The restore notice of an expired panel or a history that cannot be read whole."""
    if problem.code == RecoveryCode.REPLAY_INCOMPLETE:
        return str(gettext(REPLAY_INCOMPLETE))
    reason = EXPIRY_REASONS.get(problem.where, EXPIRY_REASONS["damaged"])
    return str(gettext("This panel can no longer be shown: %(reason)s.", reason=gettext(reason)))
