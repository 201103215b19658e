"""The public golden set through `shifu eval run` + `score`, against a trivial-planner baseline.

Usage: `python bench/eval/run.py [--cases golden/public.jsonl] [--limit N]` from the repository
root. Writes `bench/results/eval.json`, `bench/results/eval.md` and
`bench/results/eval_failures.md` (failing case ids with their categories: diagnostics for the
team; the golden set is never used to train anything).

* **system** — `shifu.eval.runner.run_cases` (a fresh demo deployment with the demo corpus and
  the laws, deterministic planner) scored by `shifu.eval.scoring.score`, as the CLI does.
* **baseline** — the same cases on one more demo deployment whose planner always answers
  "KNOWLEDGE_QA + KNOWLEDGE_SEARCH(question)" (majority class, no keywords, no model), scored by
  the same scorer.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.common import REPO, machine_facts, pct, ratio, write_results

from shifu.config import Settings, use_settings
from shifu.contracts.common import Intent, PlannerKind, ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.demo.setup import bring_up_demo
from shifu.eval.cases import GoldenCase, load_cases
from shifu.eval.runner import run_case, run_cases
from shifu.eval.scoring import score
from shifu.planning.outcome import PlanningOutcome
from shifu.runtime.agent import AgentRuntime
from shifu.runtime.wiring import build_services

CACHE_DIR = REPO / ".cache" / "embeddings"
TARGETS = {"intentAccuracy": 0.95, "toolsAccuracy": 0.95, "forbiddenToolViolations": 0}


class AlwaysKnowledgePlanner:
    """Majority-class baseline: every message is KNOWLEDGE_QA with one KNOWLEDGE_SEARCH of its text."""

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcome:
        """The same plan for every question."""
        plan = SemanticQueryPlan(
            question=question,
            normalized_question=question,
            intent=Intent.KNOWLEDGE_QA,
            confidence=1.0,
            entities=resolved.entities,
            tool_calls=[ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": question[:500]})],
        )
        return PlanningOutcome(
            plan=plan,
            planner=PlannerKind.DETERMINISTIC,
            reason_code="BASELINE_ALWAYS_KNOWLEDGE",
            model_calls=0,
            latency_ms=0.0,
        )


def read_results(text: str) -> dict[str, list[dict[str, Any]]]:
    """RESULTS.jsonl content → id → responses."""
    rows = (json.loads(line) for line in text.splitlines() if line.strip())
    return {row["id"]: row["responses"] for row in rows}


def run_system(cases: list[GoldenCase], settings: Settings) -> tuple[dict[str, list[dict[str, Any]]], float]:
    """`shifu eval run` in-process."""
    buffer = io.StringIO()
    started = time.perf_counter()
    run_cases(cases, buffer, settings=settings)
    return read_results(buffer.getvalue()), time.perf_counter() - started


def run_baseline(cases: list[GoldenCase], settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """The same cases on a fresh deployment whose runtime uses the trivial planner."""
    root = settings.data_dir / "eval-baseline"
    fresh = settings.with_changes(data_dir=root, database_url=None)
    try:
        with use_settings(fresh):
            bring_up_demo(fresh, out=None)
            services = build_services(fresh)
            try:
                parts = dataclasses.replace(services.runtime._p, planner=AlwaysKnowledgePlanner())
                services.runtime = AgentRuntime(parts)
                return {case.id: run_case(services, case) for case in cases}
            finally:
                services.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def categories(case: GoldenCase) -> str:
    """Actor, expected intents and tags of a case, for the failure list."""
    intents = "/".join(i.value for i in case.expect.intent or [])
    return f"{case.actor} · {intents or '–'} · {', '.join(case.tags) or '–'}"


def failures_markdown(
    cases: list[GoldenCase], report: dict[str, Any], results: dict[str, list[dict[str, Any]]]
) -> str:
    """Failing ids with categories and what the system did instead (codes only)."""
    index = {case.id: case for case in cases}
    lines = [
        "# Golden-set failures (deterministic planner)",
        "",
        "Diagnostics for the team. Never train on the golden set.",
        "",
        "| id | actor · expected intent · tags | failed | got intent / tools / status / decision |",
        "|---|---|---|---|",
    ]
    for failure in report["failures"]:
        case = index[failure["id"]]
        last = (results.get(case.id) or [{}])[-1]
        tools = sorted({c["tool"] for c in last.get("trace", {}).get("toolCalls", [])})
        got = (
            f"{last.get('intent')} / {','.join(tools) or '∅'} / {last.get('status')} / {last.get('decision')}"
        )
        lines.append(f"| {case.id} | {categories(case)} | {', '.join(failure['failures'])} | {got} |")
    counts = Counter(m for f in report["failures"] for m in f["failures"])
    lines += ["", f"{len(report['failures'])} failing cases of {len(cases)}; by metric: {dict(counts)}"]
    return "\n".join(lines)


def targets_met(overall: dict[str, Any]) -> dict[str, bool]:
    """Issue 4 targets on the deterministic planner."""
    return {
        "intent>=0.95": (overall["intentAccuracy"] or 0) >= TARGETS["intentAccuracy"],
        "tools>=0.95": (overall["toolsAccuracy"] or 0) >= TARGETS["toolsAccuracy"],
        "forbidden==0": overall["forbiddenToolViolations"] == 0,
    }


def render(payload: dict[str, Any]) -> str:
    """The Markdown page."""
    system, base = payload["system"], payload["baseline"]
    metrics = ("intentAccuracy", "toolsAccuracy", "statusAccuracy", "decisionAccuracy")

    def row(name: str, figures: dict[str, Any]) -> str:
        cells = " | ".join(pct(figures[m]) for m in metrics)
        return f"| {name} | {figures['cases']} | {cells} | {figures['forbiddenToolViolations']} |"

    lines = [
        "# Golden set (`golden/public.jsonl`) — deterministic planner, whole run",
        "",
        f"{payload['cases']} cases run in-process through `shifu eval run` (fresh demo deployment, "
        "demo corpus + laws, no model) and scored by `shifu eval score`. Baseline: the same deployment "
        "with a planner that always says KNOWLEDGE_QA + KNOWLEDGE_SEARCH, same scorer.",
        "",
        "| slice | cases | intent | tool set | status | decision | forbidden-tool cases |",
        "|---|---|---|---|---|---|---|",
        row("**system**", system["overall"]),
        row("baseline (always KNOWLEDGE_QA)", base["overall"]),
        "| system ÷ baseline | | "
        + " | ".join(
            "–" if payload["vs_baseline"][m] is None else f"{payload['vs_baseline'][m]:.2f}×" for m in metrics
        )
        + " | |",
    ]
    lines += [
        "",
        "Per role (system):",
        "",
        "| role | cases | intent | tool set | status | decision | forbidden |",
    ]
    lines.append("|---|---|---|---|---|---|---|")
    lines += [row(role, figures) for role, figures in system["byRole"].items()]
    lines += [
        "",
        "Per actor (system):",
        "",
        "| actor | cases | intent | tool set | status | decision | forbidden |",
    ]
    lines.append("|---|---|---|---|---|---|---|")
    lines += [row(name, figures) for name, figures in system["byActor"].items()]
    lines += [
        "",
        "Per expected intent (system):",
        "",
        "| intent | cases | intent | tool set | status | decision |",
    ]
    lines[-1] += " forbidden |"
    lines.append("|---|---|---|---|---|---|---|")
    lines += [row(name, figures) for name, figures in system["byIntent"].items()]
    met = payload["targets_met"]
    lines += [
        "",
        "Targets (issue 4): intent ≥ 95 %, tool set ≥ 95 %, 0 forbidden-tool calls — "
        + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in met.items())
        + ". Failing ids: `bench/results/eval_failures.md`.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run, score, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=str(REPO / "golden" / "public.jsonl"))
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    cases = load_cases(Path(args.cases))[: args.limit] if args.limit else load_cases(Path(args.cases))
    root = Path(tempfile.mkdtemp(prefix="shifu-eval-"))
    try:
        settings = Settings(data_dir=root, environment="demo", embedding_cache=CACHE_DIR)
        results, elapsed = run_system(cases, settings)
        baseline_results = run_baseline(cases, settings)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report = score(cases, results)
    base_report = score(cases, baseline_results)
    metrics = ("intentAccuracy", "toolsAccuracy", "statusAccuracy", "decisionAccuracy")
    payload: dict[str, Any] = {
        "benchmark": "eval.golden_public",
        "cases_file": str(Path(args.cases).resolve().relative_to(REPO)),
        "cases": len(cases),
        "run_s": round(elapsed, 1),
        "system": {
            "overall": report["overall"],
            "byIntent": report["byIntent"],
            "byRole": report["byRole"],
            "byActor": report["byActor"],
        },
        "baseline": {"planner": "always KNOWLEDGE_QA + KNOWLEDGE_SEARCH", "overall": base_report["overall"]},
        "vs_baseline": {m: ratio(report["overall"][m], base_report["overall"][m]) for m in metrics},
        "targets": TARGETS,
        "targets_met": targets_met(report["overall"]),
        "failing_ids": [f["id"] for f in report["failures"]],
        "machine": machine_facts(),
    }
    write_results("eval", payload, render(payload))
    failures = REPO / "bench" / "results" / "eval_failures.md"
    failures.write_text(failures_markdown(cases, report, results) + "\n", encoding="utf-8")
    print(render(payload))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
