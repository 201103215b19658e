"""`shifu eval run` and `shifu eval score`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shifu.config import current_settings


def _run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from shifu.eval.cases import load_cases
    from shifu.eval.runner import run_cases

    cases = load_cases(Path(args.cases))
    with Path(args.out).open("w", encoding="utf-8") as out, tqdm(total=len(cases), unit="case") as bar:
        run_cases(cases, out, settings=current_settings(), progress=lambda _: bar.update(1))
    print(f"已运行 {len(cases)} 个用例，结果写入 {args.out}")
    return 0


def _score(args: argparse.Namespace) -> int:
    from shifu.eval.cases import load_cases
    from shifu.eval.scoring import score

    cases = load_cases(Path(args.cases))
    results: dict[str, list[dict[str, Any]]] = {}
    for line in Path(args.results).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            results[row["id"]] = row["responses"]
    report = score(cases, results)
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        _print_report(report)
    return 0


def _fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value * 100:5.1f}%"


def _print_report(report: dict[str, Any]) -> None:
    header = f"{'slice':<28}{'cases':>6}{'intent':>9}{'tools':>9}{'status':>9}{'decision':>9}{'forbid':>8}"
    print(header)
    rows = [("overall", report["overall"])]
    rows += [(f"intent:{k}", v) for k, v in report["byIntent"].items()]
    rows += [(f"role:{k}", v) for k, v in report["byRole"].items()]
    rows += [(f"actor:{k}", v) for k, v in report["byActor"].items()]
    for name, row in rows:
        print(
            f"{name:<28}{row['cases']:>6}{_fmt(row['intentAccuracy']):>9}{_fmt(row['toolsAccuracy']):>9}"
            f"{_fmt(row['statusAccuracy']):>9}{_fmt(row['decisionAccuracy']):>9}{row['forbiddenToolViolations']:>8}"
        )
    if report["failures"]:
        print(
            f"\n未通过 {len(report['failures'])} 个：" + ", ".join(f["id"] for f in report["failures"][:30])
        )


def add_eval_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register `eval run` and `eval score`."""
    evaluation = subparsers.add_parser("eval", help="golden-set evaluation")
    sub = evaluation.add_subparsers(dest="eval_command", required=True)
    run = sub.add_parser("run", help="run cases against a fresh demo deployment")
    run.add_argument("cases")
    run.add_argument("--out", required=True)
    run.set_defaults(func=_run)
    scorer = sub.add_parser("score", help="score results against cases")
    scorer.add_argument("cases")
    scorer.add_argument("results")
    scorer.add_argument("--json", action="store_true")
    scorer.set_defaults(func=_score)
