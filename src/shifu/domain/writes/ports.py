"""What a domain write answers: its receipt and its typed errors.

    DomainWriteError (shifu.errors)
    ├── DomainRejected      (Failure)      the domain refused the command: definite, not retried
    └── DomainUnavailable   (Unavailable)  timeout, transport error, 5xx or an unreadable answer:
                                           the outcome is unknown; retry with the same key

Every adapter method takes the caller's idempotency key: a domain system that sees the same
key twice answers with the first record instead of writing a second one. The port the
adapters satisfy is declared by their consumer (`shifu.actions.ports.DomainWritePorts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from shifu.errors import Failure, Unavailable


@dataclass(frozen=True)
class DomainReceipt:
    """What the domain system answered: its own id, status and time of the record."""

    kind: str
    record_id: str
    status: str
    at: datetime


class DomainRejected(Failure):
    """The domain system refused the command (4xx); writing it again would not help."""

    code = "DOMAIN_REJECTED"
    message = "业务系统拒绝了这次操作，请修改后重试。"


class DomainUnavailable(Unavailable):
    """The domain system did not answer usably; the same key may be retried safely."""

    code = "DOMAIN_UNAVAILABLE"
    message = "业务系统暂时不可用，请稍后用同一确认重试。"
