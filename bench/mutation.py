"""Mutation score of the pure domain: how many deliberate bugs the fast domain tests catch.

    .venv/bin/python bench/mutation.py             # fresh mutmut run + constant mutants, then the score
    .venv/bin/python bench/mutation.py --keep      # reuse mutmut's earlier results (after a test change,
                                                   # only what mutmut re-tests is new)
    .venv/bin/python bench/mutation.py --constants-only
    .venv/bin/python bench/mutation.py --report    # the last run again, after writing down a reason
    .venv/bin/python bench/mutation.py --retry-survivors   # after a new test: its surviving constants again
    .venv/bin/python bench/mutation.py --module tasks --module task_text   # only these modules

Two kinds of mutant: mutmut's (inside function bodies, configured in pyproject's
`[tool.mutmut]`), and constant mutants (limits' defaults, id patterns, pydantic field
constraints, tags and codes), applied one by one to a copy of the tree. Survivors listed
in `mutation_accepted.toml` with a reason are reported as accepted; the command fails
when a domain module kills fewer than `--min-score` per cent, or when a survivor has no
reason written down.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from constant_mutants import ConstantMutant, constant_mutants, hand_mutants

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
DOMAIN = "tasksurface/domain"
ACCEPTED = HERE / "mutation_accepted.toml"
HAND_MUTANTS = HERE / "mutants.toml"
PYTEST_ARGS = ["-x", "-q", "-p", "no:logging", "-p", "no:cacheprovider", "--hypothesis-seed=0"]
VERDICTS = ROOT / "mutants" / "verdicts.json"
PROGRESS = ROOT / "mutants" / "constant-progress.jsonl"
"""Each constant verdict as it is reached, so `--progress` can score a run that is still going."""
"""The last run's verdicts, so `--report` can judge them again after a reason is written down."""
KILLED_CODES = {1, 3}
TIMEOUT_CODES = {24, -24, 36, 152, 255}
"""A mutant that makes the tests hang or run out of CPU time is caught, as in mutmut's own score."""
NO_TESTS_CODES = {5, 33}
CONSTANT_KILLED_CODES = {1, 2, 3, 4}
"""pytest's 2 (a failed collection) and 4 (a conftest that cannot import): the mutated module does not
even import, which the tests catch."""


@dataclass(frozen=True)
class Verdict:
    path: str
    name: str
    change: str
    killed: bool
    status: str


def mutmut_verdicts(fresh: bool, modules: list[str] | None = None, run: bool = True) -> list[Verdict]:
    """mutmut's verdicts; with `modules`, only those modules' mutants are run (all are generated,
    since mutmut maps tests to functions over the whole tree) and read. With `run` false, the
    verdicts mutmut saved last are read as they are: a function changed since has no verdict,
    which reads as a survivor ("code None") until mutmut runs it."""
    mutmut = Path(sys.executable).with_name("mutmut")
    if fresh and run:
        shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    names = [f"{DOMAIN.replace('/', '.')}.{module}.*" for module in modules or []]
    if run:
        print("mutmut run …", file=sys.stderr, flush=True)
        subprocess.run([str(mutmut), "run", *names], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    verdicts: list[Verdict] = []
    survivors: list[tuple[str, str, str]] = []
    for meta in sorted((ROOT / "mutants" / DOMAIN).glob("*.py.meta")):
        path = f"{DOMAIN}/{meta.name.removesuffix('.meta')}"
        if modules is not None and _stem(path) not in modules:
            continue
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if code in KILLED_CODES or code in TIMEOUT_CODES:
                verdicts.append(Verdict(path, name, "", True, "killed"))
            else:
                status = "no tests" if code in NO_TESTS_CODES else "survived" if code == 0 else f"code {code}"
                survivors.append((path, name, status))
    diffs = _diffs([(path, name) for path, name, _ in survivors])
    for (path, name, status), diff in zip(survivors, diffs, strict=True):
        verdicts.append(Verdict(path, name, _added_lines(diff), False, status))
    return verdicts


def _diffs(mutants: list[tuple[str, str]]) -> list[str]:
    """Each survivor's diff, from mutmut's own reader (one process, not one `mutmut show` each)."""
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from mutmut.mutation.diff_apply import get_diff_for_mutant\n"
        "pairs = json.load(sys.stdin)\n"
        "json.dump([get_diff_for_mutant(name, path=Path(path)) for path, name in pairs], sys.stdout)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(mutants),
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    diffs: list[str] = json.loads(shown.stdout)
    return diffs


def _added_lines(diff: str) -> str:
    """The mutated lines of a mutmut diff (or, for a mutant that only deletes, the deleted ones,
    marked `removed:`): with the function's name, what identifies a mutant."""
    body = [line for line in diff.splitlines() if not line.startswith(("+++", "---"))]
    added = [line[1:].strip() for line in body if line.startswith("+")]
    if added:
        return "\n".join(added)
    return "\n".join("removed: " + line[1:].strip() for line in body if line.startswith("-"))


def constant_verdicts(
    jobs: int, only: set[str] | None = None, modules: list[str] | None = None
) -> list[Verdict]:
    paths = sorted(str(p.relative_to(ROOT)) for p in (ROOT / DOMAIN).glob("*.py"))
    mutants = [m for path in paths for m in constant_mutants(ROOT, path)]
    mutants += hand_mutants(ROOT, HAND_MUTANTS)
    if only is not None:
        mutants = [m for m in mutants if m.name in only]
    if modules is not None:
        mutants = [m for m in mutants if _stem(m.path) in modules]
    with tempfile.TemporaryDirectory(prefix="mutation-") as scratch:
        workers = [_worker_tree(Path(scratch) / f"w{n}") for n in range(jobs)]
        free = list(workers)
        PROGRESS.parent.mkdir(exist_ok=True)
        PROGRESS.write_text("", encoding="utf-8")

        done = [0]

        def judge(mutant: ConstantMutant) -> Verdict:
            tree = free.pop()
            try:
                verdict = _judge(tree, mutant)
                with PROGRESS.open("a", encoding="utf-8") as progress:
                    progress.write(json.dumps(verdict.__dict__, ensure_ascii=False) + "\n")
                return verdict
            finally:
                free.append(tree)
                done[0] += 1
                print(f"\rconstant mutants: {done[0]}/{len(mutants)}", end="", file=sys.stderr, flush=True)

        with ThreadPoolExecutor(jobs) as pool:
            verdicts = list(pool.map(judge, mutants))
        print(file=sys.stderr)
        return verdicts


def _worker_tree(tree: Path) -> Path:
    for part in ("tasksurface", "tests"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def _test_files(tree: Path) -> list[str]:
    """The domain's test files in the copy, property-based ones last: `-x` stops at the first failure,
    and the example tests kill most constant mutants in a fraction of the time. Read from the copy, not
    the working tree: a test file written during a run must not make pytest fail with "file not found",
    which would count as a kill."""
    files = sorted((tree / "tests" / "domain").glob("test_*.py"))
    slow = [f for f in files if "hypothesis" in f.read_text(encoding="utf-8")]
    return [str(f.relative_to(tree)) for f in [*(f for f in files if f not in slow), *slow]]


def _naming(tree: Path, files: list[str], module: str) -> list[str]:
    """The test files that name the mutated module: the likeliest to catch it, and few to collect."""
    word = re.compile(rf"\b{re.escape(module)}\b")
    return [f for f in files if word.search((tree / f).read_text(encoding="utf-8"))]


def _judge(tree: Path, mutant: ConstantMutant) -> Verdict:
    """Killed when any domain test fails. The files naming the module run first, alone: when one of
    them fails, the whole suite would fail too, and collecting a few files is much cheaper."""
    target = tree / mutant.path
    original = target.read_text(encoding="utf-8")
    target.write_text(mutant.apply(original), encoding="utf-8")
    files = _test_files(tree)
    first = _naming(tree, files, Path(mutant.path).stem)
    try:
        code = _pytest(tree, first) if first else 0
        if not (code in CONSTANT_KILLED_CODES or code in TIMEOUT_CODES):
            code = _pytest(tree, files)
    finally:
        target.write_text(original, encoding="utf-8")
    killed = code in CONSTANT_KILLED_CODES or code in TIMEOUT_CODES
    return Verdict(mutant.path, mutant.name, mutant.change, killed, "killed" if killed else "survived")


def _pytest(tree: Path, files: list[str]) -> int:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *files, *PYTEST_ARGS],
            cwd=tree,
            env=env,
            capture_output=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        return 36
    return run.returncode


def check_imports_from_copy() -> None:
    """The copies must be what the tests import, or every constant mutant would survive."""
    with tempfile.TemporaryDirectory(prefix="mutation-probe-") as scratch:
        tree = _worker_tree(Path(scratch))
        env = {**os.environ, "PYTHONPATH": str(tree)}
        found = subprocess.run(
            [sys.executable, "-c", "import tasksurface.domain.limits as m; print(m.__file__)"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not Path(found).resolve().is_relative_to(tree.resolve()):
            raise SystemExit(f"the tests import {found}, not the mutated copy")


def accepted_survivors() -> dict[tuple[str, str], str]:
    """(mutant key, change) → why that survivor is equivalent or harmless."""
    entries = tomllib.loads(ACCEPTED.read_text(encoding="utf-8")).get("survivor", [])
    return {(_key(e["mutant"]), e["change"].strip()): e["reason"] for e in entries}


def _stem(path: str) -> str:
    return Path(path).name.removesuffix(".py")


def _saved_verdicts() -> list[Verdict]:
    if not VERDICTS.exists():
        return []
    return [Verdict(**v) for v in json.loads(VERDICTS.read_text(encoding="utf-8"))]


def _save(verdicts: list[Verdict]) -> None:
    VERDICTS.parent.mkdir(exist_ok=True)
    VERDICTS.write_text(json.dumps([v.__dict__ for v in verdicts], ensure_ascii=False), encoding="utf-8")


def _key(name: str) -> str:
    """mutmut numbers a function's mutants in order; the number moves when the function changes."""
    return name.split("__mutmut_")[0]


def report(verdicts: Iterable[Verdict], min_score: float) -> bool:
    accepted = accepted_survivors()
    by_path: dict[str, list[Verdict]] = {}
    for verdict in verdicts:
        by_path.setdefault(verdict.path, []).append(verdict)
    ok = True
    unexplained: list[Verdict] = []
    print(f"{'module':<36} {'mutants':>7} {'killed':>7} {'accepted':>8} {'unexplained':>11} {'score':>7}")
    for path, group in sorted(by_path.items()):
        killed = sum(v.killed for v in group)
        survivors = [v for v in group if not v.killed]
        explained = [v for v in survivors if (_key(v.name), v.change.strip()) in accepted]
        missing = [v for v in survivors if v not in explained]
        unexplained += missing
        score = 100.0 * killed / len(group)
        ok = ok and score >= min_score and not missing
        print(
            f"{path.removeprefix(DOMAIN + '/'):<36} {len(group):>7} {killed:>7} {len(explained):>8} "
            f"{len(missing):>11} {score:>6.1f}%"
        )
    total = [v for group in by_path.values() for v in group]
    print(f"{'all':<36} {len(total):>7} {sum(v.killed for v in total):>7}")
    explained = [v for v in total if not v.killed and v not in unexplained]
    if explained:
        print("\naccepted survivors:")
        for verdict in explained:
            reason = accepted[(_key(verdict.name), verdict.change.strip())]
            print(f"  {verdict.name}\n    {verdict.change}\n    why: {reason}")
    if unexplained:
        statuses = dict(Counter(v.status for v in unexplained))
        print(f"\nsurvivors without a reason in {ACCEPTED.name} {statuses}:\n")
        for verdict in unexplained:  # JSON strings are TOML strings: ready to paste
            print(f"[[survivor]]\nmutant = {json.dumps(verdict.name)}\nchange = {json.dumps(verdict.change)}")
            print('reason = ""\n')
    print(
        f"\n{'every module kills' if ok else 'FAILED: a module kills less than'} {min_score:g}%"
        f"{'' if ok else ' or a survivor is unexplained'}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="reuse mutmut's earlier results")
    parser.add_argument("--constants-only", action="store_true", help="skip mutmut; constant mutants only")
    parser.add_argument(
        "--reuse-mutmut",
        action="store_true",
        help="read mutmut's last saved verdicts instead of running it; constant mutants run as usual",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--report", action="store_true", help="judge the last run's verdicts again")
    parser.add_argument(
        "--progress",
        action="store_true",
        help="score what a run still going has reached: mutmut's saved verdicts and the constant "
        "mutants judged so far",
    )
    parser.add_argument(
        "--retry-survivors", action="store_true", help="run the last run's surviving constant mutants again"
    )
    parser.add_argument("--min-score", type=float, default=95.0)
    parser.add_argument(
        "--module",
        action="append",
        metavar="NAME",
        help="only this domain module (its file name without .py; repeatable); the other modules' "
        "saved verdicts are kept",
    )
    args = parser.parse_args()
    modules: list[str] | None = args.module
    for module in modules or []:
        if not (ROOT / DOMAIN / f"{module}.py").is_file():
            raise SystemExit(f"no domain module {module!r} in {DOMAIN}")
    if args.progress:
        reached = [Verdict(**json.loads(line)) for line in PROGRESS.read_text(encoding="utf-8").splitlines()]
        verdicts = mutmut_verdicts(False, modules, run=False) + reached
    elif args.report or args.retry_survivors:
        verdicts = _saved_verdicts()
        if args.retry_survivors:
            again = {v.name for v in verdicts if not v.killed and ":" in v.name}
            fresh = {v.name: v for v in constant_verdicts(args.jobs, again, modules)}
            verdicts = [fresh.get(v.name, v) for v in verdicts]
            _save(verdicts)
    else:
        check_imports_from_copy()
        verdicts = (
            [] if args.constants_only else mutmut_verdicts(not args.keep, modules, run=not args.reuse_mutmut)
        )
        verdicts += constant_verdicts(args.jobs, modules=modules)
        if modules is not None:  # the other modules' last verdicts stay
            verdicts = [v for v in _saved_verdicts() if _stem(v.path) not in modules] + verdicts
        _save(verdicts)
    if modules is not None:
        verdicts = [v for v in verdicts if _stem(v.path) in modules]
    sys.exit(0 if report(verdicts, args.min_score) else 1)


if __name__ == "__main__":
    main()
