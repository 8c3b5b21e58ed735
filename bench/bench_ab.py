"""Did a change move P2 or P3? Two versions of this product, one cold page load of each in turn.

    .venv/bin/python bench/bench_ab.py --base main [--change .] [--pairs 30] [--demo all]

`--base` and `--change` each name a commit (checked out for the run in a temporary worktree) or
`.`, this working tree as it is, uncommitted edits included. Each version is served by `flask run`
of its own checkout on its own SQLite file, and each load is `bench_page.py`'s: the session made
over the API, a cold browser with the owner's cookie, marks taken in the page. The loads come in
pairs, one of each version, in swapped order every pair and each after the same wait for a quiet
machine, so a pair shares the machine's moment. It prints, for P2 and P3, each version's median,
the median and mean of the paired differences (change − base) and a 95 % bootstrap interval for
that median (`paired.py`). When the interval holds zero, these runs cannot tell the two apart.

The same commit on both sides shows what the machine alone does to such a comparison.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench_page import one_run
from cold_browser import (
    ROOT,
    alternated_pairs,
    chromedriver_of,
    chromium_binary,
    flask_server,
    machine_arguments,
)
from paired import Paired, paired

FIGURES = (
    ("P2 navigation → Submit usable", "P2_hit_ready_ms"),
    ("P3 click → acknowledgement", "P3_click_to_next_visible_ms"),
)


@contextmanager
def checkout(version: str, work: Path) -> Iterator[Path]:
    """The folder that holds `version`: this working tree for `.`, else a worktree of the commit
    (which shares this checkout's `.venv`), removed afterwards."""
    if version == ".":
        yield ROOT
        return
    folder = work / f"checkout-{len(list(work.iterdir()))}"
    git = ["git", "-C", str(ROOT)]
    commit = f"{version}^{{commit}}"
    if subprocess.run([*git, "rev-parse", "--verify", "--quiet", commit], capture_output=True).returncode:
        raise SystemExit(f"{version!r} names no commit here (use . for the working tree)")
    subprocess.run([*git, "worktree", "add", "--detach", "--quiet", str(folder), version], check=True)
    try:
        yield folder
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(folder)], check=False)


def report(name: str, result: Paired) -> str:
    return (
        f"{name} (ms): base {result.base_median:.1f}, change {result.change_median:.1f}; "
        f"paired difference median {result.median_difference:+.1f} "
        f"[{result.low:+.1f}, {result.high:+.1f}], mean {result.mean_difference:+.1f}: {result.verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", required=True, help="a commit, or . for this working tree")
    parser.add_argument("--change", default=".", help="a commit, or . for this working tree (default)")
    parser.add_argument("--pairs", type=int, default=30, help="pairs of cold loads measured")
    parser.add_argument("--warmup", type=int, default=1, help="pairs first, not counted")
    parser.add_argument("--demo", default="all", help="the panel docked (/surface DEMO)")
    parser.add_argument("--json", metavar="PATH", help="also write every pair here")
    machine_arguments(parser)
    args = parser.parse_args()
    binary, driver_binary = chromium_binary(args.chromium), chromedriver_of(args)
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "change": []}
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as work, ExitStack() as stack:
        folder = Path(work)
        checkouts, profiles = folder / "checkouts", folder / "profiles"
        bases: dict[str, str] = {}
        for side in ("base", "change"):
            data = folder / side
            for made in (checkouts, profiles, data):
                made.mkdir(exist_ok=True)
            root = stack.enter_context(checkout(getattr(args, side), checkouts))
            bases[side] = stack.enter_context(flask_server(data, root=root))

        def load(side: str) -> dict[str, Any]:
            return one_run(bases[side], args.demo, binary, driver_binary, profiles)

        for pair in alternated_pairs(("base", "change"), args.pairs, args.warmup, load, args):
            for side in runs:
                runs[side].append(pair[side])
            shown = ", ".join(f"{side} {pair[side]['P2_hit_ready_ms']:.0f}" for side in runs)
            print(f"pair {len(runs['base'])}: P2 {shown} ms", file=sys.stderr, flush=True)
    if not runs["base"]:
        raise SystemExit("no pair succeeded")
    pairs = len(runs["base"])
    print(f"{args.base} (base) against {args.change} (change): {pairs} pairs of cold loads of {args.demo!r}")
    for name, key in FIGURES:
        print(report(name, paired([r[key] for r in runs["base"]], [r[key] for r in runs["change"]])))
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
