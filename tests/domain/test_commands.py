"""Declared commands: the file's defaults and bounds, the schema the model is shown, the checked
run, rendering, and the progress a line reports. Figures are the documented contract, written out."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from tasksurface.domain.commands import (
    ArgumentSpec,
    CommandsFile,
    InvalidCommandsFile,
    argv,
    check_run,
    check_value,
    parse_commands,
    progress_of,
    render,
)
from tasksurface.domain.refusals import TaskRefused

DECLARED = """
[commands.greet]
description = "Says hello."
label = "Greet {who}"
argv = ["echo", "{who}"]
[commands.greet.args.who]
type = "string"
max_length = 10
[commands.plain]
description = "Takes nothing."
argv = ["true"]
[commands.count]
description = "Counts."
argv = ["{python}", "{n}"]
[commands.count.args.n]
type = "integer"
minimum = 1
maximum = 5
default = 3
[commands.free]
description = "Any integer."
argv = ["free", "{k}"]
[commands.free.args.k]
type = "integer"
[commands.pick]
description = "Picks."
argv = ["pick", "{colour}"]
[commands.pick.args.colour]
type = "string"
choices = ["red", "blue"]
[commands.flag]
description = "Takes an option."
argv = ["flag", "{opt}"]
[commands.flag.args.opt]
type = "string"
allow_leading_dash = true
"""


def declared() -> CommandsFile:
    """Parsed in each test, so the parse itself runs under test."""
    return parse_commands(DECLARED)


def refusal(commands: CommandsFile, name: object, args: object) -> tuple[str, str, str]:
    with pytest.raises(TaskRefused) as caught:
        check_run(commands, name, args)
    problem = caught.value.problem
    return problem.code, problem.message, problem.where


def test_a_command_left_to_its_defaults_is_bounded_as_documented() -> None:
    spec = parse_commands('[commands.x]\ndescription = "d"\nargv = ["a"]\n').commands["x"]
    assert spec.label == ""
    assert spec.cwd == "."
    assert spec.timeout_seconds == 600.0
    assert spec.kill_grace_seconds == 5.0
    assert spec.env == ("PATH", "LANG", "LC_ALL", "HOME", "TZ")
    assert spec.set_env == {}
    assert spec.output_limit_bytes == 65536
    assert spec.output == "stream"
    assert spec.progress is None
    argument = ArgumentSpec(type="string")
    assert (argument.description, argument.default, argument.choices) == ("", None, None)
    assert argument.max_length == 200
    assert (argument.minimum, argument.maximum, argument.allow_leading_dash) == (None, None, False)


def _one(body: str) -> str:
    return f'[commands.x]\ndescription = "d"\nargv = ["a"]\n{body}\n'


@pytest.mark.parametrize(
    "body",
    [
        "timeout_seconds = 604800",
        "timeout_seconds = 0.5",
        "kill_grace_seconds = 0.5",
        "kill_grace_seconds = 600",
        "output_limit_bytes = 0",
        'description = "' + "d" * 1000 + '"',
        '[commands.x.args.a]\ntype = "string"\nmax_length = 1',
        '[commands.x.args.a]\ntype = "string"\nmax_length = 4000',
        'env = ["PATH"]\nset_env = {A = "1"}\ncwd = "/tmp"\noutput = "final"',
        'output = "stream"',
        'progress = "(\\\\d+)"',
    ],
)
def test_values_at_the_bounds_load(body: str) -> None:
    if body.startswith("description"):
        parse_commands(f'[commands.x]\n{body}\nargv = ["a"]\n')
    else:
        parse_commands(_one(body))


@pytest.mark.parametrize(
    "text",
    [
        _one("timeout_seconds = 604801"),
        _one("timeout_seconds = 0"),
        _one("kill_grace_seconds = 601"),
        _one("kill_grace_seconds = 0"),
        _one("output_limit_bytes = -1"),
        _one('output = "tail"'),
        _one('[commands.x.args.a]\ntype = "string"\nmax_length = 0'),
        _one('[commands.x.args.a]\ntype = "string"\nmax_length = 4001'),
        _one('[commands.x.args.a]\ntype = "float"'),
        _one('[commands.x.args.a]\ntype = "string"\nshell = true'),
        _one('[commands.x.args.a]\ntype = "integer"\nminimum = "1"'),
        _one('[commands.x.args.python]\ntype = "string"'),
        _one('[commands.x.args.A]\ntype = "string"'),
        _one('label = "{who}"'),
        _one("timeout_seconds = true"),
        '[commands.x]\ndescription = ""\nargv = ["a"]\n',
        '[commands.x]\ndescription = "' + "d" * 1001 + '"\nargv = ["a"]\n',
        '[commands.x]\ndescription = "d"\nargv = ["a"]\n[other]\n',
        '[commands."' + "a" * 41 + '"]\ndescription = "d"\nargv = ["a"]\n',
        '[commands.9a]\ndescription = "d"\nargv = ["a"]\n',
    ],
)
def test_a_declaration_out_of_bounds_refuses_to_load(text: str) -> None:
    with pytest.raises(InvalidCommandsFile, match=r"^the commands file does not fit: "):
        parse_commands(text)


def test_command_names_are_lower_case_letters_digits_dash_and_underscore_up_to_40() -> None:
    names = ["a", "c09", "a_b-c", "a" * 40]
    text = "".join(f'[commands."{n}"]\ndescription = "d"\nargv = ["a"]\n' for n in names)
    assert sorted(parse_commands(text).commands) == sorted(names)


def test_a_file_that_is_not_toml_says_so_and_names_itself() -> None:
    with pytest.raises(InvalidCommandsFile, match=r"^the commands file is not TOML: "):
        parse_commands("not = [toml")
    with pytest.raises(InvalidCommandsFile, match=r"^commands\.toml does not fit: "):
        parse_commands("[nothing]\n", "commands.toml")


def test_the_model_is_shown_each_argument_as_json_schema() -> None:
    assert ArgumentSpec(type="string").json_schema() == {"type": "string", "maxLength": 200}
    choosing = ArgumentSpec(type="string", description="Colour.", choices=("red", "blue"), default="red")
    assert choosing.json_schema() == {
        "type": "string",
        "description": "Colour.",
        "maxLength": 200,
        "enum": ["red", "blue"],
        "default": "red",
    }
    counting = ArgumentSpec(type="integer", minimum=1, maximum=5, default=3, max_length=9)
    assert counting.json_schema() == {"type": "integer", "minimum": 1, "maximum": 5, "default": 3}
    assert ArgumentSpec(type="integer").json_schema() == {"type": "integer"}


def test_a_checked_run_carries_its_name_values_and_label() -> None:
    commands = declared()
    run = check_run(commands, "greet", {"who": "Ada"})
    assert (run.name, dict(run.values), run.label) == ("greet", {"who": "Ada"}, "Greet Ada")
    assert check_run(commands, "plain", None).label == "plain"
    assert dict(check_run(commands, "count", None).values) == {"n": 3}
    assert check_run(commands, "count", {"n": 5}).label == "count"


def test_a_label_is_cut_at_200_characters() -> None:
    text = _one('label = "{v}"\n[commands.x.args.v]\ntype = "string"\nmax_length = 300')
    assert len(check_run(parse_commands(text), "x", {"v": "v" * 300}).label) == 200


def test_integer_bounds_are_inclusive_and_each_refusal_says_which() -> None:
    commands = declared()
    assert dict(check_run(commands, "count", {"n": 1}).values) == {"n": 1}
    assert dict(check_run(commands, "count", {"n": 5}).values) == {"n": 5}
    assert dict(check_run(commands, "free", {"k": -7}).values) == {"k": -7}
    assert refusal(commands, "count", {"n": 0}) == (
        "command.invalid-argument",
        "n must be at least 1",
        "args.n",
    )
    assert refusal(commands, "count", {"n": 6}) == (
        "command.invalid-argument",
        "n must be at most 5",
        "args.n",
    )
    assert refusal(commands, "count", {"n": "3"}) == (
        "command.invalid-argument",
        "n must be an integer",
        "args.n",
    )


def test_string_refusals_say_what_a_value_may_hold() -> None:
    commands = declared()
    assert dict(check_run(commands, "greet", {"who": "w" * 10}).values) == {"who": "w" * 10}
    assert dict(check_run(commands, "greet", {"who": "tab\there"}).values) == {"who": "tab\there"}
    assert dict(check_run(commands, "flag", {"opt": "-v"}).values) == {"opt": "-v"}
    cases: dict[str, list[tuple[dict[str, object], str]]] = {
        "greet": [
            ({"who": 5}, "who must be a string"),
            ({"who": "w" * 11}, "who holds at most 10 characters"),
            ({"who": "a\x1fb"}, "who may not hold control characters"),
            ({"who": "a\x0bb"}, "who may not hold control characters"),
            ({"who": "a\x08b"}, "who may not hold control characters"),
            ({"who": "a\x7f"}, "who may not hold control characters"),
            ({"who": "-rf"}, "who may not start with '-'"),
        ],
        "pick": [({"colour": "green"}, "colour must be one of red, blue")],
    }
    for name, refused in cases.items():
        for args, message in refused:
            assert refusal(commands, name, args)[1:] == (message, f"args.{next(iter(args))}")


def test_run_refusals_name_the_command_the_argument_and_what_is_declared() -> None:
    commands = declared()
    assert refusal(commands, "rm", {}) == (
        "command.unknown",
        "there is no command 'rm'; declared: count, flag, free, greet, pick, plain",
        "name",
    )
    assert refusal(CommandsFile(), "rm", {}) == (
        "command.unknown",
        "there is no command 'rm'; declared: none",
        "name",
    )
    assert refusal(commands, "greet", ["Ada"]) == ("task.invalid-arguments", "args must be an object", "args")
    assert refusal(commands, "greet", {"who": "a", "x": 1}) == (
        "command.unknown-argument",
        "greet takes no argument 'x'",
        "args.x",
    )
    assert refusal(commands, "greet", {}) == (
        "command.missing-argument",
        "greet needs the argument 'who'",
        "args.who",
    )


def test_a_default_is_checked_like_a_value() -> None:
    spec = ArgumentSpec(type="integer", minimum=2)
    with pytest.raises(TaskRefused):
        check_value("n", spec, 1)
    assert check_value("n", spec, 2) == 2


def test_rendering_puts_each_value_inside_one_argument_and_keeps_literal_braces() -> None:
    commands = parse_commands(
        _one(
            'argv = ["{python}", "--n={n09}", "{{x}}", "}}{{"]\n[commands.x.args.n09]\ntype = "integer"'
        ).replace('argv = ["a"]\n', "", 1)
    )
    run = check_run(commands, "x", {"n09": 4})
    assert argv(commands.commands["x"], run.values, "/usr/bin/python3") == [
        "/usr/bin/python3",
        "--n=4",
        "{x}",
        "}{",
    ]
    assert render("{python}", {}) == "python"
    with pytest.raises(KeyError):
        render("{missing}", {})


def test_a_line_reports_progress_as_done_and_total_or_as_a_percentage() -> None:
    pair = re.compile(r"(\d+)/(\d+)")
    assert progress_of(pair, "step 3/8") == (3.0, 8.0)
    assert progress_of(re.compile(r"(\d+)%"), "at 40%") == (40.0, None)
    assert progress_of(re.compile(r"(\d+)(?:/(\d+))?"), "7") == (7.0, None)
    assert progress_of(pair, "no figures") is None
    assert progress_of(re.compile(r"done"), "done") is None
    assert progress_of(re.compile(r"(x)?(\d+)"), "5") is None
    assert progress_of(re.compile(r"(\w+)"), "many") is None


def test_progress_is_looked_for_in_the_first_500_characters_of_a_line() -> None:
    digit = re.compile(r"(\d)")
    assert progress_of(digit, "x" * 499 + "7") == (7.0, None)
    assert progress_of(digit, "x" * 500 + "7") is None


def test_a_loaded_declaration_cannot_be_changed_afterwards() -> None:
    spec = parse_commands(_one('[commands.x.args.a]\ntype = "string"')).commands["x"]
    # The models are frozen: each assignment below is refused at run time, which is the point.
    with pytest.raises(ValidationError):
        spec.timeout_seconds = 1.0  # type: ignore[misc]
    with pytest.raises(ValidationError):
        spec.args["a"].max_length = 1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        parse_commands(_one("")).commands = {}  # type: ignore[misc]


@pytest.mark.parametrize(
    "args",
    [
        '[commands.x.args.n]\ntype = "integer"\nminimum = 2\ndefault = 1',
        '[commands.x.args.s]\ntype = "string"\nmax_length = 3\ndefault = "four"',
    ],
)
def test_a_default_outside_its_own_bounds_is_the_files_fault_and_stops_the_start(args: str) -> None:
    text = '[commands.x]\ndescription = "d"\nargv = ["a"]\n' + args + "\n"
    with pytest.raises(
        InvalidCommandsFile,
        match=r"(?s)^the commands file does not fit: .*the default of '[ns]' does not fit",
    ):
        parse_commands(text)
