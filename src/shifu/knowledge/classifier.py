"""Deterministic claim classifier: which needs a fragment *might* support, from body cues.

The labels are candidates for the evidence gate (invariant 8), never proof; the gate still
has to confirm each claim against the text. Being deterministic, the same text always gets
the same labels, so re-ingesting never changes a fragment.
"""

from __future__ import annotations

import re

from shifu.contracts.common import NEED_CLAIM_TYPE, ClaimType, EvidenceNeed
from shifu.nlp.definitions import DEFINES
from shifu.nlp.quantities import PAY_STATED
from shifu.nlp.record_contents import RECORD_CONTENT_WORDS

_CUES: tuple[tuple[EvidenceNeed, re.Pattern[str]], ...] = (
    (
        EvidenceNeed.AMOUNT_RULE,
        re.compile(
            r"\d[\d,，.]*\s*(?:万元|元|块|万)|[一二两三四五六七八九十百千万]+(?:元|万元)|"
            r"(?:金额|标准|上限|限额|额度|累计)[^。]{0,12}(?:不超过|以下|以上|以内|超过)|"
            + PAY_STATED.pattern
        ),
    ),
    (
        EvidenceNeed.PROCESS_STEPS,
        re.compile(
            r"步骤|流程|首先|然后|其次|最后|第[一二三四五六七八九十]步|^\s*\d+[.、．]\s*\S", re.MULTILINE
        ),
    ),
    (
        EvidenceNeed.REQUIRED_MATERIALS,
        re.compile(
            r"材料|提交[^。]{0,20}(?:证明|凭证|资料|单据)|发票|附件|证明文件|"
            + "|".join(RECORD_CONTENT_WORDS)
        ),
    ),
    (EvidenceNeed.APPROVAL, re.compile(r"审批|批准|审核|签批|核准|签字同意")),
    (EvidenceNeed.PROHIBITION, re.compile(r"不得|禁止|严禁|不准|不允许")),
    (
        EvidenceNeed.DEADLINE,
        re.compile(
            r"期限|[\d一二三四五六七八九十百]+\s*(?:个)?(?:日|天|小时|分钟|周|个月|工作日)内|之前|以前|届满|时效"
        ),
    ),
    (EvidenceNeed.DEFINITION, re.compile(rf"{DEFINES.pattern}|称[^。]{{0,10}}的")),
    (EvidenceNeed.CONTACT, re.compile(r"电话|联系人|联系方式|热线|咨询|邮箱")),
    (EvidenceNeed.OBLIGATION, re.compile(r"应当|必须|有义务|负责")),
    (EvidenceNeed.LIABILITY, re.compile(r"赔偿|责任|罚款|处分|追究|违约金|处罚")),
    (
        EvidenceNeed.ELIGIBILITY,
        re.compile(
            r"条件|符合|满[\d一二三四五六七八九十]+(?:年|个月|周岁)|资格|有权|可以申请|情形之一|情况之一|认定为|适用于"
        ),
    ),
)


def classify_claims(text: str) -> tuple[tuple[EvidenceNeed, ...], tuple[ClaimType, ...]]:
    """Candidate needs and claim types for `text`, in a fixed order; GENERAL_RULE always included."""
    needs = [need for need, pattern in _CUES if pattern.search(text)]
    needs.append(EvidenceNeed.GENERAL_RULE)
    return tuple(needs), tuple(NEED_CLAIM_TYPE[need] for need in needs)
