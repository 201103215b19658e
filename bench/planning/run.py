"""Deterministic planning bench: latency p50/p95 over the utterance set and k-fold held-out accuracy.

Run: `.venv/bin/python bench/planning/run.py [--folds 5]`; writes bench/results/planning.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from shifu.contracts.context import ResolvedContext
from shifu.nlp.entities import extract_entities
from shifu.planning.classifier import DATA_FILE, UtteranceClassifier, load_utterances, trained_classifier
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.tool_calls import choose_tool_set

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)
RESULTS = Path(__file__).resolve().parents[1] / "results"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency() -> dict[str, float]:
    """Plan every utterance once (after a warm-up) and time it end to end."""
    started = time.perf_counter()
    trained_classifier()
    train_s = time.perf_counter() - started
    planner = DeterministicPlanner()
    utterances = load_utterances()
    for u in utterances[:50]:
        planner.plan(u.text, ResolvedContext(), now=NOW, tz=TZ)
    timings: list[float] = []
    cpu: list[float] = []
    for u in utterances:
        cpu_started = time.thread_time()
        timings.append(planner.plan(u.text, ResolvedContext(), now=NOW, tz=TZ).latency_ms)
        cpu.append((time.thread_time() - cpu_started) * 1000)
    return {
        "train_s": round(train_s, 3),
        "p50_ms": round(_percentile(timings, 0.5), 3),
        "p95_ms": round(_percentile(timings, 0.95), 3),
        "mean_ms": round(statistics.fmean(timings), 3),
        "cpu_p50_ms": round(_percentile(cpu, 0.5), 3),
        "cpu_p95_ms": round(_percentile(cpu, 0.95), 3),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count() or 0,
        "n": len(timings),
    }


def held_out(folds: int) -> dict[str, object]:
    """Stratified-by-order k-fold: intent accuracy and exact tool-set accuracy on unseen utterances."""
    utterances = load_utterances()
    entities = [extract_entities(u.text, now=NOW, tz=TZ) for u in utterances]
    correct_intent = correct_tools = 0
    per_intent: Counter[str] = Counter()
    per_intent_ok: Counter[str] = Counter()
    for fold in range(folds):
        train = [i for i in range(len(utterances)) if i % folds != fold]
        test = [i for i in range(len(utterances)) if i % folds == fold]
        model = UtteranceClassifier([utterances[i] for i in train], [entities[i] for i in train])
        for i in test:
            u = utterances[i]
            prediction = model.predict(u.text, entities[i])
            intent = prediction.intents[0][0]
            tools = choose_tool_set(intent, prediction.tool_sets)
            per_intent[u.intent.value] += 1
            if intent is u.intent:
                correct_intent += 1
                per_intent_ok[u.intent.value] += 1
            correct_tools += int(tools == u.tools)
    total = len(utterances)
    return {
        "folds": folds,
        "n": total,
        "intent_accuracy": round(correct_intent / total, 4),
        "tool_set_accuracy": round(correct_tools / total, 4),
        "per_intent": {k: round(per_intent_ok[k] / v, 4) for k, v in sorted(per_intent.items())},
    }


def main() -> None:
    """Run both measurements and write the results."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    result = {"data_file": str(DATA_FILE.name), "latency": latency(), "held_out": held_out(args.folds)}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "planning.json").write_text(
        json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    lat, acc = result["latency"], result["held_out"]
    assert isinstance(lat, dict) and isinstance(acc, dict)
    rows = "\n".join(f"| {k} | {v:.1%} |" for k, v in acc["per_intent"].items())
    (RESULTS / "planning.md").write_text(
        "# Deterministic planning bench\n\n"
        f"Utterances: {acc['n']} ({DATA_FILE.name}); training {lat['train_s']} s.\n\n"
        f"- latency p50 {lat['p50_ms']} ms, p95 {lat['p95_ms']} ms (target p95 ≤ 5 ms), "
        f"mean {lat['mean_ms']} ms (wall clock; load average {lat['load_average_1m']} "
        f"on {lat['cpus']} CPUs)\n"
        f"- CPU time per plan p50 {lat['cpu_p50_ms']} ms, p95 {lat['cpu_p95_ms']} ms "
        "(what the planner costs without scheduler waits on a shared machine)\n"
        f"- {acc['folds']}-fold held-out intent accuracy {acc['intent_accuracy']:.1%}, "
        f"exact tool-set accuracy {acc['tool_set_accuracy']:.1%}\n\n"
        "The end-to-end golden-set accuracy is measured by the eval harness, not here.\n\n"
        f"| intent | held-out accuracy |\n| --- | --- |\n{rows}\n",
        encoding="utf-8",
    )
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
