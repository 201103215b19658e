"""`shifu eval run` + `shifu eval score` end to end through the CLI entry point.

A fresh demo deployment (org, demo work, company corpus; no laws, so it is quick) is brought
up by the runner itself; passage vectors come from the shared `.cache/embeddings` cache.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shifu.cli import main
from shifu.config import Settings, use_settings

REPO = Path(__file__).resolve().parents[2]
CASES = [
    {
        "id": "h-tasks",
        "actor": "employee",
        "turns": ["我今天有哪些待办事项"],
        "expect": {
            "intent": ["LIVE_MY_WORK"],
            "tools": [["MY_CURRENT_TASKS"]],
            "forbid_tools": ["TEAM_WORK_RESULTS"],
            "status": ["COMPLETED"],
        },
    },
    {
        "id": "h-social",
        "actor": "candidate",
        "turns": ["你好呀"],
        "expect": {
            "intent": ["SOCIAL"],
            "tools": [[]],
            "forbid_tools": ["KNOWLEDGE_SEARCH"],
            "status": ["COMPLETED"],
        },
    },
    {
        "id": "h-multi",
        "actor": "employee",
        "turns": ["帮我记一下，5栋302周五要回访", "算了不用记了"],
        "expect": {"tools": [[]], "status": ["COMPLETED"]},
        "tags": ["multi_turn"],
    },
]


@pytest.fixture
def eval_settings(tmp_path: Path) -> Iterator[Settings]:
    """Settings the CLI picks up: a fresh data dir, no laws, the shared embedding cache."""
    laws = tmp_path / "no-laws"
    laws.mkdir()
    value = Settings(
        data_dir=tmp_path / "var",
        environment="demo",
        laws_dir=laws,
        embedding_cache=REPO / ".cache" / "embeddings",
    )
    with use_settings(value):
        yield value


def run_and_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Write the cases, run them, score them as JSON; return result rows and the report."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in CASES) + "\n", encoding="utf-8")
    results = tmp_path / "results.jsonl"
    assert main(["eval", "run", str(cases), "--out", str(results)]) == 0
    capsys.readouterr()
    assert main(["eval", "score", str(cases), str(results), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    return rows, report


def test_run_then_score_end_to_end(
    eval_settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, report = run_and_score(tmp_path, capsys)

    assert [row["id"] for row in rows] == ["h-tasks", "h-social", "h-multi"]
    assert [len(row["responses"]) for row in rows] == [1, 1, 2]
    first, second = rows[2]["responses"]
    assert first["conversationId"] == second["conversationId"]
    assert second["contextVersion"] > first["contextVersion"]
    assert first["status"] == "NEEDS_CONFIRMATION"
    assert all(r["trace"]["planner"] == "DETERMINISTIC" for row in rows for r in row["responses"])

    overall = report["overall"]
    assert overall["cases"] == 3
    assert (overall["intentAccuracy"], overall["intentChecked"]) == (1.0, 2)
    assert (overall["toolsAccuracy"], overall["toolsChecked"]) == (1.0, 3)
    assert (overall["statusAccuracy"], overall["statusChecked"]) == (1.0, 3)
    assert overall["forbiddenToolViolations"] == 0
    assert report["failures"] == []
    assert set(report["byRole"]) == {"EMPLOYEE", "CANDIDATE"}
    assert report["byRole"]["EMPLOYEE"]["cases"] == 2
    assert set(report["byIntent"]) == {"LIVE_MY_WORK", "SOCIAL"}
    assert not any((eval_settings.data_dir / "eval").glob("*")), "the throwaway deployment was not removed"


def test_score_reports_a_bad_case_line_by_number(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(CASES[0]) + "\n" + '{"id": "x", "actor": "employee"}\n', encoding="utf-8")
    results = tmp_path / "r.jsonl"
    results.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"cases.jsonl:2"):
        main(["eval", "score", str(cases), str(results)])
