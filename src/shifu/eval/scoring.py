"""Scores results against golden cases: intent, tool set, status, decision, forbidden tools."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shifu.demo.org_seed import actor
from shifu.eval.cases import GoldenCase

_CALLED = {"OK", "NO_RESULT", "TIMEOUT", "UNAVAILABLE", "FAILED"}
"""Tool-call statuses meaning the tool was actually invoked (refused/invalid/deduplicated were not)."""


def called_tools(response: Mapping[str, Any]) -> set[str]:
    """Tool codes actually invoked in one response's trace."""
    calls = response.get("trace", {}).get("toolCalls", [])
    return {c["tool"] for c in calls if c.get("status") in _CALLED}


@dataclass
class Tally:
    """Hit counts for one slice (overall, an intent or a role)."""

    cases: int = 0
    checked: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    correct: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    forbidden_violations: int = 0

    def add(self, metric: str, ok: bool) -> None:
        """Count one checked expectation."""
        self.checked[metric] += 1
        self.correct[metric] += int(ok)

    def as_dict(self) -> dict[str, Any]:
        """Accuracies per metric plus counts."""
        out: dict[str, Any] = {"cases": self.cases, "forbiddenToolViolations": self.forbidden_violations}
        for metric in ("intent", "tools", "status", "decision"):
            n = self.checked.get(metric, 0)
            out[f"{metric}Accuracy"] = round(self.correct.get(metric, 0) / n, 4) if n else None
            out[f"{metric}Checked"] = n
        return out


@dataclass
class CaseScore:
    """Which expectations one case met."""

    case_id: str
    failures: list[str]


def _expected_metrics(case: GoldenCase) -> list[str]:
    """The metrics a case checks (a missing result fails every one of them)."""
    expect = case.expect
    present = {
        "intent": expect.intent,
        "tools": expect.tools,
        "status": expect.status,
        "decision": expect.decision,
    }
    return [metric for metric, value in present.items() if value is not None]


def demo_role(actor_key: str) -> str:
    """The role of a demo actor (two actors share EMPLOYEE); an unknown key is its own slice."""
    try:
        return actor(actor_key).role.value
    except KeyError:
        return actor_key


def score(
    cases: Sequence[GoldenCase],
    results: Mapping[str, list[dict[str, Any]]],
    *,
    role_of: Callable[[str], str] = demo_role,
) -> dict[str, Any]:
    """Overall, per-intent, per-role and per-actor accuracies and the failing case ids.

    A case is sliced by the first acceptable intent of its expectation, by its actor's role
    (`role_of`) and by its actor key.
    """
    overall = Tally()
    by_intent: dict[str, Tally] = defaultdict(Tally)
    by_role: dict[str, Tally] = defaultdict(Tally)
    by_actor: dict[str, Tally] = defaultdict(Tally)
    failures: list[dict[str, Any]] = []
    for case in cases:
        responses = results.get(case.id)
        slices = [overall, by_role[role_of(case.actor)], by_actor[case.actor]]
        if case.expect.intent:
            slices.append(by_intent[case.expect.intent[0].value])
        for tally in slices:
            tally.cases += 1
        if not responses:
            for metric in _expected_metrics(case):
                for tally in slices:
                    tally.add(metric, False)
            failures.append({"id": case.id, "failures": ["MISSING_RESULT"]})
            continue
        last = responses[-1]
        problems: list[str] = []
        checks: list[tuple[str, bool]] = []
        if case.expect.intent is not None:
            checks.append(("intent", last.get("intent") in {i.value for i in case.expect.intent}))
        if case.expect.tools is not None:
            got = called_tools(last)
            checks.append(("tools", any(got == {t.value for t in option} for option in case.expect.tools)))
        if case.expect.status is not None:
            checks.append(("status", last.get("status") in {s.value for s in case.expect.status}))
        if case.expect.decision is not None:
            checks.append(("decision", last.get("decision") in {d.value for d in case.expect.decision}))
        forbidden = {t.value for t in case.expect.forbid_tools}
        violated = any(called_tools(r) & forbidden for r in responses)
        for metric, ok in checks:
            for tally in slices:
                tally.add(metric, ok)
            if not ok:
                problems.append(metric.upper())
        if violated:
            for tally in slices:
                tally.forbidden_violations += 1
            problems.append("FORBIDDEN_TOOL")
        if problems:
            failures.append({"id": case.id, "failures": problems})
    return {
        "overall": overall.as_dict(),
        "byIntent": {k: v.as_dict() for k, v in sorted(by_intent.items())},
        "byRole": {k: v.as_dict() for k, v in sorted(by_role.items())},
        "byActor": {k: v.as_dict() for k, v in sorted(by_actor.items())},
        "failures": failures,
    }
