"""The bounded executor as an explicit finite state machine (invariant 5).

    INITIAL ──(all slots covered / nothing to follow)──────────────▶ DONE
       │
       └─(a slot is missing AND a new evidence target exists)──▶ FOLLOW_UP
                                                                  │
                          (still missing) ─▶ CLARIFY_OR_END ──────┴──▶ DONE
    any state ──(run time budget spent)──▶ TIMEOUT

One initial execution, at most one follow-up with a *new* evidence target, then a third
round that may only clarify or end — it never calls a tool. A follow-up whose calls were all
seen before (same call hash) or whose target was already pursued stops the run. Only
structured actions, observations and reason codes are recorded.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from shifu.contracts.common import DecisionStatus
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall


class Phase(StrEnum):
    """States of the bounded run."""

    INITIAL = "INITIAL"
    FOLLOW_UP = "FOLLOW_UP"
    CLARIFY_OR_END = "CLARIFY_OR_END"
    DONE = "DONE"
    TIMEOUT = "TIMEOUT"


@dataclass(frozen=True)
class FollowUp:
    """A proposed follow-up: the calls and the evidence target they pursue."""

    target: str
    calls: tuple[ToolCall, ...]


@dataclass
class RoundRecord:
    """What one round did: its calls' results (structured) and the decision after it."""

    number: int
    phase: Phase
    results: list[ToolResult]
    decision: DecisionResult | None


@dataclass
class RunOutcome:
    """The finished run."""

    rounds: list[RoundRecord] = field(default_factory=list)
    final_phase: Phase = Phase.INITIAL
    reason_codes: list[str] = field(default_factory=list)

    @property
    def results(self) -> list[ToolResult]:
        """Every result of every round, in order."""
        return [r for record in self.rounds for r in record.results]

    @property
    def decision(self) -> DecisionResult | None:
        """The last decision taken."""
        for record in reversed(self.rounds):
            if record.decision is not None:
                return record.decision
        return None


def call_hash(call: ToolCall) -> str:
    """Hash of (tool, canonical arguments): the de-duplication key of a call."""
    canonical = json.dumps(
        {"tool": call.tool.value, "arguments": call.arguments}, sort_keys=True, ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


ExecuteRound = Callable[[Sequence[ToolCall], int], list[ToolResult]]
Evaluate = Callable[[Sequence[ToolResult]], DecisionResult | None]
ProposeFollowUp = Callable[[DecisionResult | None, Sequence[ToolResult]], FollowUp | None]

_SETTLED = {DecisionStatus.ANSWERED, DecisionStatus.CONFLICT, DecisionStatus.NEEDS_INPUT}


class BoundedRun:
    """Drives the rounds; the tools, the evaluation and the follow-up policy are injected."""

    def __init__(
        self,
        *,
        execute: ExecuteRound,
        evaluate: Evaluate,
        propose_follow_up: ProposeFollowUp,
        time_budget_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._execute = execute
        self._evaluate = evaluate
        self._propose = propose_follow_up
        self._budget = time_budget_s
        self._clock = clock

    def run(self, initial_calls: Sequence[ToolCall]) -> RunOutcome:
        """Run to DONE or TIMEOUT."""
        started = self._clock()
        outcome = RunOutcome()
        seen_hashes = {call_hash(c) for c in initial_calls}
        results = self._execute(initial_calls, 1)
        decision = self._evaluate(results)
        outcome.rounds.append(RoundRecord(1, Phase.INITIAL, results, decision))
        if self._out_of_time(started):
            return self._finish(outcome, Phase.TIMEOUT, "RUN_TIMEOUT")
        if decision is None or decision.status in _SETTLED:
            return self._finish(outcome, Phase.DONE, None)
        proposal = self._propose(decision, outcome.results)
        if proposal is None:
            return self._finish(outcome, Phase.DONE, "NO_NEW_EVIDENCE_TARGET")
        fresh = [c for c in proposal.calls if call_hash(c) not in seen_hashes]
        if not fresh:
            return self._finish(outcome, Phase.DONE, "DUPLICATE_CALL_STOP")
        seen_hashes.update(call_hash(c) for c in fresh)
        follow_results = self._execute(fresh, 2)
        decision = self._evaluate([*outcome.results, *follow_results])
        outcome.rounds.append(RoundRecord(2, Phase.FOLLOW_UP, follow_results, decision))
        outcome.reason_codes.append(f"FOLLOW_UP_{proposal.target}")
        if self._out_of_time(started):
            return self._finish(outcome, Phase.TIMEOUT, "RUN_TIMEOUT")
        if decision is None or decision.status in _SETTLED:
            return self._finish(outcome, Phase.DONE, None)
        outcome.rounds.append(RoundRecord(3, Phase.CLARIFY_OR_END, [], decision))
        return self._finish(outcome, Phase.DONE, "THIRD_ROUND_CLARIFY_OR_END")

    def _out_of_time(self, started: float) -> bool:
        return self._clock() - started > self._budget

    @staticmethod
    def _finish(outcome: RunOutcome, phase: Phase, reason: str | None) -> RunOutcome:
        outcome.final_phase = phase
        if reason:
            outcome.reason_codes.append(reason)
        return outcome
