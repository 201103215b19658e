"""Every error Shifu raises on purpose, as one tree.

    ShifuError
    ├── Signal                      expected outcomes that end a request with a status
    │   ├── NeedsInput              NEEDS_INPUT: a required field or reference is missing
    │   ├── NoEvidence              NO_EVIDENCE: zero qualified evidence
    │   ├── Forbidden               FORBIDDEN: policy or authorization refused
    │   │   └── ProjectNotAllowed   the selected project is not one of the user's
    │   ├── Unavailable             UNAVAILABLE: a dependency is down or too slow
    │   │   └── ToolTimeout         one tool call passed its timeout
    │   └── BudgetExceeded          the run's call/candidate/time budget is spent
    ├── Misuse                      the caller did something wrong (4xx)
    │   ├── BadRequest              malformed input (not JSON, wrong shape)
    │   ├── InvalidInput            well-formed input that breaks the contract
    │   ├── PayloadTooLarge         the body is larger than allowed
    │   ├── UnsupportedMediaType    the body is not JSON
    │   ├── Unauthenticated         missing, expired or forged token
    │   ├── ClientMismatch          client id differs from the token's app
    │   ├── VersionConflict         stale contextVersion / expectedVersion, or a key in flight
    │   ├── IdempotencyMismatch     same idempotency key, different body
    │   ├── NotFound                unknown id
    │   └── Expired                 a ticket, link or draft past its lifetime
    └── Failure                     something broke that should not have (FAILED)
        ├── ConfigurationError      settings are unusable
        ├── PlanRejected            a plan failed validation (never shown to users)
        └── ModelError              the model endpoint misbehaved

Each error carries a stable `code` (machine-readable, UPPER_SNAKE) and a Chinese
`message` safe to show a user. HTTP mapping lives only in `shifu.api`.
"""

from __future__ import annotations


class ShifuError(Exception):
    """Base of every deliberate error; `code` is stable, `message` is user-facing Chinese."""

    code = "SHIFU_ERROR"
    message = "处理失败，请稍后再试。"

    def __init__(self, message: str | None = None, *, code: str | None = None) -> None:
        self.message = message or type(self).message
        self.code = code or type(self).code
        super().__init__(self.message)


class Signal(ShifuError):
    """An expected outcome that ends a request with a non-COMPLETED status."""


class NeedsInput(Signal):
    """A required field or a reference is missing; the user must add it."""

    code = "NEEDS_INPUT"
    message = "还需要补充一些信息。"


class NoEvidence(Signal):
    """Zero qualified evidence for the question."""

    code = "NO_EVIDENCE"
    message = "没有找到可以作为依据的正式资料。"


class Forbidden(Signal):
    """Policy or authorization refused the request or one of its tools."""

    code = "FORBIDDEN"
    message = "当前账号无权执行该操作。"


class ProjectNotAllowed(Forbidden):
    """The client selected a project that is not one of the user's."""

    code = "PROJECT_NOT_ALLOWED"
    message = "所选项目不在你的授权范围内。"


class Unavailable(Signal):
    """A dependency (domain system, index, model) is down or too slow."""

    code = "UNAVAILABLE"
    message = "相关系统暂时不可用，请稍后再试。"


class ToolTimeout(Unavailable):
    """One tool call passed its timeout; its late result is discarded."""

    code = "TOOL_TIMEOUT"
    message = "查询超时，请稍后再试。"


class BudgetExceeded(Signal):
    """The run spent its call, candidate or time budget."""

    code = "BUDGET_EXCEEDED"
    message = "本次处理已达到上限，请把问题说得更具体一些。"


class Misuse(ShifuError):
    """The caller did something wrong; mapped to a 4xx status."""


class BadRequest(Misuse):
    """Malformed or invalid input."""

    code = "BAD_REQUEST"
    message = "请求格式不正确。"


class InvalidInput(Misuse):
    """Well-formed input that breaks the contract (unknown field, empty or too long text)."""

    code = "VALIDATION_ERROR"
    message = "请求参数不符合要求。"


class PayloadTooLarge(Misuse):
    """The request body is larger than allowed."""

    code = "BODY_TOO_LARGE"
    message = "请求内容过大。"


class UnsupportedMediaType(Misuse):
    """The request body is not JSON."""

    code = "UNSUPPORTED_MEDIA_TYPE"
    message = "请求格式必须是 JSON。"


class Unauthenticated(Misuse):
    """Missing, expired or forged credentials."""

    code = "UNAUTHENTICATED"
    message = "登录已失效，请重新登录。"


class ClientMismatch(Misuse):
    """The client id does not match the token's app."""

    code = "CLIENT_MISMATCH"
    message = "客户端与登录凭证不匹配。"


class VersionConflict(Misuse):
    """A stale version, or the same idempotency key still in flight."""

    code = "VERSION_CONFLICT"
    message = "内容已被更新，请刷新后重试。"

    def __init__(self, message: str | None = None, *, code: str | None = None, current: int | None = None):
        super().__init__(message, code=code)
        self.current = current


class IdempotencyMismatch(Misuse):
    """The same idempotency key was reused with a different body."""

    code = "IDEMPOTENCY_KEY_REUSED"
    message = "同一个幂等键不能用于不同的内容。"


class NotFound(Misuse):
    """An unknown id."""

    code = "NOT_FOUND"
    message = "没有找到对应的内容。"


class Expired(Misuse):
    """A ticket, link or draft past its lifetime."""

    code = "EXPIRED"
    message = "内容已过期，请重新发起。"


class Failure(ShifuError):
    """Something broke that should not have; the request ends FAILED."""

    code = "FAILED"
    message = "处理失败，请稍后再试。"


class ConfigurationError(Failure):
    """Settings are unusable."""

    code = "CONFIGURATION_ERROR"
    message = "服务配置有误。"


class PlanRejected(Failure):
    """A plan failed validation; `code` names the rule (e.g. AUTHORIZATION_FIELD)."""

    code = "PLAN_REJECTED"
    message = "计划未通过校验。"


class ModelError(Failure):
    """The model endpoint timed out, failed or answered out of contract."""

    code = "MODEL_ERROR"
    message = "模型服务异常。"
