"""How an evidence decision maps onto the response status the client renders."""

from __future__ import annotations

from shifu.contracts.common import DecisionStatus, ResponseStatus

_RESPONSE_STATUS: dict[DecisionStatus, ResponseStatus] = {
    DecisionStatus.ANSWERED: ResponseStatus.COMPLETED,
    DecisionStatus.PARTIAL: ResponseStatus.COMPLETED,
    DecisionStatus.NEEDS_INPUT: ResponseStatus.NEEDS_INPUT,
    DecisionStatus.CONFLICT: ResponseStatus.NEEDS_INPUT,
    DecisionStatus.NO_EVIDENCE: ResponseStatus.NO_EVIDENCE,
}


def response_status(decision: DecisionStatus) -> ResponseStatus:
    """The AgentResponse status for a decision; PARTIAL completes, CONFLICT asks the user."""
    return _RESPONSE_STATUS[decision]
