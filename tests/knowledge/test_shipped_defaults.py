"""The retriever ships the fusion settings the STARD benchmark chose on its train split and measured."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from shifu.knowledge.retrieval import BANK_WITHOUT_ADAPTER, BankParams

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results" / "retrieval.json"


def test_the_bank_and_tail_defaults_are_the_benchmarked_train_choice() -> None:
    measured = json.loads(RESULTS.read_text(encoding="utf-8"))["stard"]["comparison"]["shipped_params"]
    measured = {name: value for name, value in measured.items() if name != "candidates"}
    assert asdict(BankParams()) == measured, "re-run bench/retrieval and ship its train choice, or vice versa"


def test_without_an_adapter_the_bank_fusion_is_that_settings_own_train_choice() -> None:
    comparison = json.loads(RESULTS.read_text(encoding="utf-8"))["stard"]["comparison"]
    measured = comparison["without_adapter"]["params"]
    measured = {name: value for name, value in measured.items() if name != "candidates"}
    assert asdict(BANK_WITHOUT_ADAPTER) == measured, "re-run bench/retrieval and ship its train choice"
