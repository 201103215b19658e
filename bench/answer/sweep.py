"""RGB zh: the evidence gate's rejection / accuracy trade-off at other answering thresholds.

Usage: `python bench/answer/sweep.py` from the repository root. Writes
`bench/results/answer_sweep.json` and `bench/results/answer_sweep.md`.

The shipped gate answers a question of an asked kind only from a sentence that, with the sentence
before it, covers `CONTEXT_SCORE` of the question's weighted terms and, alone, `SENTENCE_SCORE`
(`shifu.evidence.answering`). This benchmark re-runs the gate path of `bench/answer/run.py`
(planner → search → evaluator → extractive composer; same sets, seed and scoring) with those two
constants raised, to show where the deterministic path's operating points lie against the targets
(rejection ≥ 95 % with accuracy ≥ 80 %). The constants are set on the modules for the run only; the
product never changes them at run time. The first row is the shipped setting.

RGB data is CC BY-NC-SA (internal evaluation only): the results hold figures only.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.answer.prewarm import prewarm
from bench.answer.rgb import build_sets, load_questions
from bench.answer.run import Bench, bench_deployment
from bench.common import machine_facts, pct, write_results

import shifu.evidence.answering as answering
import shifu.evidence.slots as slots

SETTINGS: tuple[tuple[float, float], ...] = (
    (answering.CONTEXT_SCORE, answering.SENTENCE_SCORE),
    (0.8, 0.5),
    (0.7, 0.6),
    (0.8, 0.6),
    (0.9, 0.6),
    (0.9, 0.7),
)
"""(CONTEXT_SCORE, SENTENCE_SCORE) pairs, the shipped one first."""
TARGET_REJECTION = 0.95
TARGET_ACCURACY = 0.80


def _share(hits: int, total: int) -> float:
    return hits / total if total else 0.0


def _use_thresholds(context: float, sentence: float) -> None:
    """Set the gate's two coverage thresholds where the evaluator reads them."""
    answering.CONTEXT_SCORE = context
    answering.SENTENCE_SCORE = sentence
    slots.CONTEXT_SCORE = context


def _operating_point(bench: Bench, sets: list[Any]) -> dict[str, Any]:
    """Rejection at noise 1.0 and accuracy at 0–0.8 over all questions and by id parity."""
    rejected = {0: [0, 0], 1: [0, 0]}
    correct = {0: [0, 0], 1: [0, 0]}
    for item in sets:
        verdict, *_ = bench.gate(item, datetime.now(UTC))
        half = item.question.qid % 2
        tally = rejected if item.ratio == 1.0 else correct
        tally[half][1] += 1
        tally[half][0] += verdict.rejected if item.ratio == 1.0 else verdict.correct
    return {
        "rejection": _share(rejected[0][0] + rejected[1][0], rejected[0][1] + rejected[1][1]),
        "accuracy": _share(correct[0][0] + correct[1][0], correct[0][1] + correct[1][1]),
        "rejection_even": _share(*rejected[0]),
        "rejection_odd": _share(*rejected[1]),
        "accuracy_even": _share(*correct[0]),
        "accuracy_odd": _share(*correct[1]),
    }


def render(payload: dict[str, Any]) -> str:
    """The result page."""
    lines = [
        "### RGB zh — the gate's trade-off at other answering thresholds",
        "",
        payload["what"],
        "",
        "| CONTEXT_SCORE | SENTENCE_SCORE | rejection @1.0 | accuracy (0–0.8) "
        "| even ids rej / acc | odd ids rej / acc |",
        "|---|---|---|---|---|---|",
    ]
    for row in payload["points"]:
        lines.append(
            f"| {row['context_score']} | {row['sentence_score']}{' (shipped)' if row['shipped'] else ''} "
            f"| {pct(row['rejection'])} | {pct(row['accuracy'])} "
            f"| {pct(row['rejection_even'])} / {pct(row['accuracy_even'])} "
            f"| {pct(row['rejection_odd'])} / {pct(row['accuracy_odd'])} |"
        )
    met = payload["targets_met_at"]
    lines += [
        "",
        f"Settings meeting both targets (rejection ≥ {pct(TARGET_REJECTION)}, "
        f"accuracy ≥ {pct(TARGET_ACCURACY)}): "
        + (", ".join(f"{context}/{sentence}" for context, sentence in met) if met else "none"),
    ]
    machine = payload["machine"]
    lines += [
        "",
        f"Measured {machine['measured_at']} at commit {machine['commit']}; {payload['run_s']:.0f} s.",
    ]
    return "\n".join(lines)


def main() -> int:
    """Run every setting on the same ingested sets and write the result files."""
    sets = build_sets(load_questions())
    shipped = SETTINGS[0]
    points: list[dict[str, Any]] = []
    started = time.perf_counter()
    with bench_deployment("shifu-rgb-sweep-") as (bench, folder):
        prewarm(bench.kb.parts.embedder, {p.stem: p for s in sets for p in s.passages}.values(), folder)
        bench.ingest(sets, folder)
        try:
            for context, sentence in SETTINGS:
                _use_thresholds(context, sentence)
                point = _operating_point(bench, sets)
                setting = {"context_score": context, "sentence_score": sentence}
                points.append(setting | {"shipped": (context, sentence) == shipped} | point)
                print(f"sweep {context}/{sentence}: {point}", file=sys.stderr, flush=True)
        finally:
            _use_thresholds(*shipped)
    payload = {
        "benchmark": "answer_sweep",
        "what": (
            "Gate path of the RGB benchmark (300 questions × 6 noise ratios, seed and scoring as in the "
            "answer section) at raised coverage thresholds of `shifu.evidence.answering`."
        ),
        "points": points,
        "targets_met_at": [
            [row["context_score"], row["sentence_score"]]
            for row in points
            if row["rejection"] >= TARGET_REJECTION and row["accuracy"] >= TARGET_ACCURACY
        ],
        "run_s": time.perf_counter() - started,
        "machine": machine_facts(),
    }
    json_path, md_path = write_results("answer_sweep", payload, render(payload))
    print(f"wrote {json_path} and {md_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
