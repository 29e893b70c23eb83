"""The whole accessibility matrix: axe-core on every page × principal × language × width.

    .venv/bin/python bench/a11y_all.py [--report docs/accessibility-report.md] [--only world|demo] [--quick]

Runs the two whole-matrix tests of tests/a11y/test_axe.py (``KYOKU_A11Y_ALL=1``) through
./scripts/test, on a SQLite test database with a live server and Debian's Chromium:

- the matrix world (every route of the endpoint matrix, its objects from tests/security/kinds.py),
- the demo league (``seed_demo``) crawled by links from the front page,

each page as anonymous, the owning player, the referee, the admin and the event director, in en,
zh-Hant and ja, at 390 and 1366 px. It prints how many pages were checked and how many findings of
each impact were left after the named exceptions (tests/a11y/exceptions.py), and writes the
moderate and minor findings to the report (docs/accessibility.md links it). Exit status 1 when a
serious or critical violation is found. On a busy two-core machine the matrix world took 35
minutes (1,722 pages); ``--quick`` (each template once) takes minutes."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = {
    "world": "tests/a11y/test_axe.py::test_every_page_of_the_matrix_world_passes_axe",
    "demo": "tests/a11y/test_axe.py::test_every_page_of_the_demo_passes_axe",
}


def run(parts: list[str], out: Path, quick: bool) -> int:
    env = {**os.environ, "KYOKU_A11Y_ALL": "1", "KYOKU_A11Y_OUT": str(out), "KYOKU_A11Y_QUICK": "1" if quick else ""}
    env.pop("KYOKU_TESTS_SERVICES_ONLY", None)
    args = [str(ROOT / "scripts" / "test"), *(TESTS[p] for p in parts), "-q", "-p", "no:cacheprovider"]
    return subprocess.run(args, cwd=ROOT, env=env).returncode


def report(results: dict[str, dict], seconds: float, quick: bool = False) -> str:
    """The moderate and minor findings, grouped by rule, then template."""
    looks = sum(r["looks"] for r in results.values())
    runs = sum(r["runs"] for r in results.values())
    findings = [f for r in results.values() for f in r["findings"]]
    impacts = Counter(f["impact"] for f in findings)
    excepted = Counter()
    for r in results.values():
        excepted.update(r["excepted"])
    lines = [
        "# Accessibility report: moderate and minor findings",
        "",
        "Written by `bench/a11y_all.py` (see [accessibility.md](accessibility.md)); do not edit by hand.",
        "",
        f"- parts: {', '.join(sorted(results))}; "
        + ("each template once (--quick)" if quick else "every page × principal × language × width"),
        f"- pages checked: {runs} of {looks}, in {seconds / 60:.0f} min",
        "- findings by impact: " + (", ".join(f"{k} {v}" for k, v in sorted(impacts.items())) or "none"),
        "- set aside as named exceptions: " + (", ".join(f"{k} {v}" for k, v in sorted(excepted.items())) or "none"),
        "",
    ]
    by_rule: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    helps = {}
    for f in findings:
        if f["impact"] in ("serious", "critical"):
            continue
        by_rule[(f["impact"], f["rule"])][f["template"]].append(f)
        helps[f["rule"]] = f["help"]
    if not by_rule:
        lines.append("No moderate or minor finding.")
    for (impact, rule), templates in sorted(by_rule.items()):
        lines += [
            f"## {rule} ({impact})",
            "",
            helps[rule],
            "",
            "| template | page | seen | element |",
            "|---|---|---|---|",
        ]
        for template, rows in sorted(templates.items()):
            first = rows[0]
            seen = sorted({f"{r['principal']} {r['language']} {r['width']}" for r in rows})
            target = ", ".join(f"`{t}`" for t in first["targets"][:3])
            lines.append(f"| {template} | {first['page']} | {len(rows)} ({seen[0]} …) | {target} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", default=str(ROOT / "docs" / "accessibility-report.md"))
    parser.add_argument("--only", choices=sorted(TESTS), action="append")
    parser.add_argument(
        "--quick", action="store_true", help="each template once, as the CI slice (minutes, not an hour)"
    )
    args = parser.parse_args()
    parts = args.only or sorted(TESTS, reverse=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        started = time.monotonic()
        status = run(parts, out, args.quick)
        seconds = time.monotonic() - started
        results = {p: json.loads((out / f"{p}.json").read_text()) for p in parts if (out / f"{p}.json").exists()}
    if not results:
        print("no result written: the tests did not run (is /usr/bin/chromium installed?)", file=sys.stderr)
        return 2
    for part, r in results.items():
        impacts = Counter(f["impact"] for f in r["findings"])
        counts = ", ".join(f"{k} {v}" for k, v in sorted(impacts.items())) or "no finding"
        print(f"{part}: {r['runs']} pages checked of {r['looks']}; {counts}; excepted {sum(r['excepted'].values())}")
    Path(args.report).write_text(report(results, seconds, args.quick), encoding="utf-8")
    print(f"report: {args.report} ({seconds:.0f} s)")
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
