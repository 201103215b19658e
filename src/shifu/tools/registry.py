"""The tool registry: every tool the server knows, declared as plain data.

A `ToolSpec` fixes a tool's argument schema, kind, allowed intents, authorization policy,
fact freshness, idempotency class, audit type and attachment/consent/confirmation needs
(seed 003). Allowed roles are not repeated here: they come from `shifu.policy.ROLE_TOOLS`,
the one source of truth. Anything not registered is refused (UNKNOWN_TOOL).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from shifu.contracts.common import Contract, Intent, Role, SourceType, ToolCode, ToolKind
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS
from shifu.errors import Forbidden
from shifu.policy import AuthorizationPolicy, ReasonCode, ToolPolicyFacts, roles_for


class IdempotencyClass(StrEnum):
    """How safe a tool is to repeat."""

    SAFE_READ = "SAFE_READ"
    """A read: repeating it changes nothing."""
    DRAFT_NO_WRITE = "DRAFT_NO_WRITE"
    """Produces a draft only; the write happens after confirmation with its own key."""
    WRITE_WITH_KEY = "WRITE_WITH_KEY"
    """Writes; needs an idempotency key and an expected version."""
    EXTERNAL_CALL = "EXTERNAL_CALL"
    """Leaves the company; repeated calls are rate-limited, never retried blindly."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """Everything the server fixes about one tool."""

    code: ToolCode
    label: str
    """Chinese name shown in the source bar and in capability answers."""
    kind: ToolKind
    allowed_intents: frozenset[Intent]
    authorization: AuthorizationPolicy
    ttl_seconds: int
    """How long facts from this tool may be reused before re-reading."""
    idempotency: IdempotencyClass
    audit_type: str
    """Audit event type recorded for a call (codes only, never bodies)."""
    source_type: SourceType
    needs_attachment: bool = False
    needs_consent: bool = False
    needs_confirmation: bool = False
    systems: tuple[str, ...] = ()
    """Names of the systems this tool reads, for CAPABILITY_QUERY (待办, 训练 …)."""
    policy_facts: ToolPolicyFacts = field(init=False)

    def __post_init__(self) -> None:
        facts = ToolPolicyFacts(
            code=self.code,
            kind=self.kind,
            allowed_intents=self.allowed_intents,
            authorization=self.authorization,
            needs_attachment=self.needs_attachment,
            needs_consent=self.needs_consent,
            needs_confirmation=self.needs_confirmation,
        )
        object.__setattr__(self, "policy_facts", facts)

    @property
    def args_model(self) -> type[Contract]:
        """The registered argument schema (shared with the planners' validators)."""
        return TOOL_ARGUMENT_MODELS[self.code]

    @property
    def allowed_roles(self) -> frozenset[Role]:
        """Roles allowed to call this tool, from the policy's role table."""
        return roles_for(self.code)


def _read(
    code: ToolCode,
    label: str,
    intents: Iterable[Intent],
    authorization: AuthorizationPolicy,
    *,
    ttl_seconds: int,
    audit_type: str,
    source_type: SourceType,
    systems: tuple[str, ...] = (),
    needs_attachment: bool = False,
) -> ToolSpec:
    return ToolSpec(
        code,
        label,
        ToolKind.READ,
        frozenset(intents),
        authorization,
        ttl_seconds,
        IdempotencyClass.SAFE_READ,
        audit_type,
        source_type,
        needs_attachment=needs_attachment,
        systems=systems,
    )


def _draft(
    code: ToolCode, label: str, authorization: AuthorizationPolicy, systems: tuple[str, ...]
) -> ToolSpec:
    return ToolSpec(
        code,
        label,
        ToolKind.DRAFT,
        frozenset({Intent.CAPTURE_FACT if code is ToolCode.CAPTURE_MEMORY_DRAFT else Intent.DRAFT_ACTION}),
        authorization,
        0,
        IdempotencyClass.DRAFT_NO_WRITE,
        "DRAFT_CREATED",
        SourceType.DRAFT,
        needs_confirmation=True,
        systems=systems,
    )


_I = Intent
_A = AuthorizationPolicy
_LIVE = SourceType.LIVE_DATA

DEFAULT_SPECS: tuple[ToolSpec, ...] = (
    _read(
        ToolCode.KNOWLEDGE_SEARCH,
        "企业知识检索",
        (
            _I.KNOWLEDGE_QA,
            _I.RESOURCE_DELIVERY,
            _I.LIVE_MY_WORK,
            _I.PRACTICE_COACHING,
            _I.MEDIA_UNDERSTANDING,
        ),
        _A.SPACE_INTERSECTION,
        ttl_seconds=600,
        audit_type="KNOWLEDGE_READ",
        source_type=SourceType.KNOWLEDGE,
        systems=("知识库", "制度", "SOP", "资料", "文档"),
    ),
    _read(
        ToolCode.KNOWLEDGE_RESOURCE,
        "原文件/视频交付",
        (_I.RESOURCE_DELIVERY, _I.KNOWLEDGE_QA),
        _A.SPACE_INTERSECTION,
        ttl_seconds=300,
        audit_type="RESOURCE_ISSUE",
        source_type=SourceType.KNOWLEDGE,
        systems=("原文件", "视频", "下载"),
    ),
    _read(
        ToolCode.MY_CURRENT_TASKS,
        "我的当前待办",
        (_I.LIVE_MY_WORK,),
        _A.SELF_ONLY,
        ttl_seconds=60,
        audit_type="LIVE_DATA_READ",
        source_type=_LIVE,
        systems=("待办", "任务", "工单", "巡检", "回访"),
    ),
    _read(
        ToolCode.MY_PRACTICE_SUMMARY,
        "我的训练记录",
        (_I.LIVE_MY_WORK, _I.PRACTICE_COACHING),
        _A.SELF_ONLY,
        ttl_seconds=300,
        audit_type="LIVE_DATA_READ",
        source_type=_LIVE,
        systems=("训练", "练习", "复盘", "成绩"),
    ),
    _read(
        ToolCode.TEAM_PRACTICE_SUMMARY,
        "团队训练与复盘",
        (_I.LIVE_TEAM_WORK,),
        _A.SUPERVISED_PROJECTS,
        ttl_seconds=300,
        audit_type="TEAM_DATA_READ",
        source_type=_LIVE,
        systems=("团队训练", "待复盘"),
    ),
    _read(
        ToolCode.MY_WORK_RESULTS,
        "我的工作成果",
        (_I.LIVE_MY_WORK,),
        _A.SELF_ONLY,
        ttl_seconds=300,
        audit_type="LIVE_DATA_READ",
        source_type=_LIVE,
        systems=("工作成果", "成果"),
    ),
    _read(
        ToolCode.TEAM_WORK_RESULTS,
        "团队工作成果",
        (_I.LIVE_TEAM_WORK,),
        _A.SUPERVISED_PROJECTS,
        ttl_seconds=300,
        audit_type="TEAM_DATA_READ",
        source_type=_LIVE,
        systems=("团队成果",),
    ),
    _read(
        ToolCode.MY_CANDIDATE_PROGRESS,
        "我的面试进度",
        (_I.LIVE_MY_WORK,),
        _A.SELF_ONLY,
        ttl_seconds=300,
        audit_type="LIVE_DATA_READ",
        source_type=_LIVE,
        systems=("面试", "入职", "资料状态", "招聘"),
    ),
    _read(
        ToolCode.CAPABILITY_QUERY,
        "可用能力查询",
        (_I.CAPABILITY_QUERY, _I.SOCIAL),
        _A.REGISTERED_TOOLS,
        ttl_seconds=60,
        audit_type="CAPABILITY_READ",
        source_type=SourceType.CAPABILITY,
    ),
    _draft(ToolCode.CAPTURE_MEMORY_DRAFT, "记录草稿", _A.SELF_ONLY, ("记录", "备忘")),
    _draft(ToolCode.PRACTICE_ASSIGNMENT_DRAFT, "训练指派草稿", _A.SUPERVISED_PROJECTS, ("训练指派",)),
    _draft(ToolCode.REVIEW_DRAFT, "复盘名单草稿", _A.SUPERVISED_PROJECTS, ("复盘名单",)),
    _draft(ToolCode.WORK_REPORT_DRAFT, "成果投稿草稿", _A.SELF_ONLY, ("成果投稿",)),
    _read(
        ToolCode.MEDIA_ANALYZE,
        "图片/视频识别",
        (_I.MEDIA_UNDERSTANDING,),
        _A.ATTACHMENT_SCOPE,
        ttl_seconds=0,
        audit_type="MEDIA_ANALYZE",
        source_type=SourceType.MEDIA,
        systems=("图片识别", "视频识别", "语音"),
        needs_attachment=True,
    ),
    ToolSpec(
        ToolCode.WEB_RESEARCH,
        "全网查询",
        ToolKind.EXTERNAL,
        frozenset({_I.WEB_RESEARCH, _I.MEDIA_UNDERSTANDING}),
        _A.CONSENTED_EXTERNAL,
        0,
        IdempotencyClass.EXTERNAL_CALL,
        "EXTERNAL_CALL",
        SourceType.WEB,
        needs_consent=True,
        systems=("全网", "互联网", "网上"),
    ),
)
"""The server's tool catalogue (seed 001 §7)."""


class ToolRegistry:
    """Looks up registered tools; anything else is refused."""

    def __init__(self, specs: Iterable[ToolSpec] = DEFAULT_SPECS) -> None:
        self._specs: dict[ToolCode, ToolSpec] = {}
        for spec in specs:
            if spec.code in self._specs:
                raise ValueError(f"tool {spec.code} registered twice")
            self._specs[spec.code] = spec

    def __contains__(self, code: object) -> bool:
        return code in self._specs

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._specs.values())

    def specs(self) -> tuple[ToolSpec, ...]:
        """All registered specs, in catalogue order."""
        return tuple(self._specs.values())

    def get(self, code: ToolCode | str) -> ToolSpec:
        """The spec of a registered tool; unknown → Forbidden(UNKNOWN_TOOL)."""
        try:
            return self._specs[ToolCode(code)]
        except (ValueError, KeyError) as exc:
            raise Forbidden(code=ReasonCode.UNKNOWN_TOOL.value) from exc

    def parse_call(self, raw: Mapping[str, object]) -> ToolCall:
        """A ToolCall from untrusted plan data; an unregistered tool name → Forbidden(UNKNOWN_TOOL).

        Arguments are kept as given: the executor validates them again at execution.
        """
        spec = self.get(str(raw.get("tool", "")))
        arguments = raw.get("arguments", {})
        if not isinstance(arguments, Mapping):
            raise Forbidden(code="ARGUMENTS_NOT_AN_OBJECT")
        return ToolCall.model_validate({"tool": spec.code, "arguments": dict(arguments)})
