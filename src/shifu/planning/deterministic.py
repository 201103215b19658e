"""The embedded planner: a trained classifier plus deterministic entities, no model endpoint.

It is the default when no model is configured and the fallback when a model plan fails
validation. The intent comes from the calibrated classifier (`classifier.py`), never from
keyword branches; below the confidence bar the plan is CLARIFY with the likeliest
options — never a blanket KNOWLEDGE_QA (seed 001 §6.1). It does not take the user's role:
understanding is independent of authorization, and policy refuses what a role may not do.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from shifu.context import cues
from shifu.contracts.common import ContextRelation, EvidenceNeed, Intent, PlannerKind, ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.contracts.entities import ExtractedEntities
from shifu.contracts.plan import ResponseStyle, SemanticQueryPlan
from shifu.nlp.entities import extract_entities, normalize_text
from shifu.nlp.injection import without_control_fields, without_instructions, without_markup
from shifu.nlp.mentions import VERSION_MENTION
from shifu.nlp.terms import HANDED_IN_LATE, question_terms
from shifu.planning.classifier import DATA_FILE, Prediction, ToolSet, UtteranceClassifier, trained_classifier
from shifu.planning.outcome import PlanningOutcome, ReasonCode
from shifu.planning.tool_calls import (
    DRAFT_TOOLS,
    EXTERNAL_TOOLS,
    INTENT_TOOL_SETS,
    build_tool_calls,
    choose_tool_set,
    widen_with_search,
)
from shifu.planning.uncovered import asks_for_peoples_contacts, asks_uncovered_data, uncovered_action

CONFIDENCE_THRESHOLD = 0.40
"""Below this calibrated probability the planner asks instead of guessing."""

_FOLLOW_UPS = frozenset({ContextRelation.FOLLOW_UP, ContextRelation.CORRECTION, ContextRelation.REFERENCE})
_LEADING_FILLER = re.compile(r"^(?:请问|你好|您好|师傅|老师|hi|hello)[，,！!。\s]*", re.IGNORECASE)
_WORDED_NEEDS: tuple[tuple[EvidenceNeed, re.Pattern[str]], ...] = (
    (
        EvidenceNeed.REQUIRED_MATERIALS,
        re.compile(
            r"(?:带|携带|准备|提交|提供|交)(?:上|好|齐)?(?:些)?(?:什么|啥|哪些|哪几样)(?![费钱])|"
            r"(?:要|需要|得|开)(?:什么|啥|哪些)(?:证明|材料|资料|单据)"
        ),
    ),
    (
        EvidenceNeed.APPROVAL,
        re.compile(r"(?:几|哪些|哪几|什么)(?:个|位|级)?(?:人|领导|层)?(?:签字|签批|签名|审批|批准|批)"),
    ),
    (
        EvidenceNeed.DEADLINE,
        re.compile(
            r"期限|时限|截止|来不及|赶不上|(?:几|多少)个?(?:天|日|工作日|小时|分钟|周)(?:之内|以内|内)|多久(?:之内|以内|内)|"
            r"多久(?:能|可以|会|才能)?(?:到账|到位|出来|办好|批下来|退)"
        ),
    ),
    (EvidenceNeed.AMOUNT_RULE, re.compile(r"(?:上限|限额|额度)(?:是|有|为)?(?:多少|几)")),
    (EvidenceNeed.PROHIBITION, re.compile(r"禁忌|红线|(?:哪些|什么)(?:是)?(?:禁止|严禁|不能做|不准做)")),
    (EvidenceNeed.DEFINITION, re.compile(r"^什么(?:是|叫)|是什么意思|指的是什么|是指什么|的定义|怎么定义")),
)
"""Wording that names the claim asked for whatever the classifier predicts: 要带什么 / 准备哪些 / 交啥 /
要什么证明 ask for materials (交什么费 asks for money), 超过期限了还能报吗, 几天内要整改完 and 多久到账 for
the time limit (逾期不交物业费 only describes the situation), 单笔上限多少 for an amount, whose caliber is
then checked, 有哪些禁忌 for what is prohibited, 要几个人签字 / 要哪些人签字 for who signs (the sources
name the signers, not a count), 什么是人员密集场所 / …是什么意思 for a definition (报销流程是什么 asks no
meaning)."""
_WITHOUT_A_DOCUMENT = re.compile(
    r"(?:没|没有|无|开不了|拿不到)[\u4e00-\u9fff]{0,4}?(?:发票|票|证明|收据|凭证)"
)
"""没发票能报吗: doing without a paper a rule requires is answered by the materials it lists (合法有效的
发票原件) and what it forbids (无发票采购，或以收据、白条代替发票报账), not by who may claim."""
_A_PAPER = re.compile(r"发票|收据|凭证|小票|白条|复印件")
"""电子发票可以报吗 / 拿收据能报销吗: whether a paper will do is answered the same way (合法有效的发票原件或
电子发票打印件; 以收据、白条代替发票报账 is forbidden)."""
_VERSION_CHOICE = re.compile(rf"(?:按照?|用|以|根据)?(?:{VERSION_MENTION.pattern})(?:的|为准|来)?(?:呢|吧)?")
"""A version chosen (按2024版的, 以新版为准): which document to answer from, never what is asked of it."""
_DISPOSAL = re.compile(
    r"(?:垃圾|废品|废料|废弃物|杂物|渣土)(?:要|应该|该|得)?(?:怎么|如何|咋|怎样)(?:处理|处置|清运|运走|扔|丢|倒)"
)
"""装修垃圾怎么处理: getting rid of something is mostly a rule (装修垃圾必须袋装，当天运至…临时堆放点), not
steps; the rule is asked for beside the steps."""
_MISHAP = re.compile(
    r"不及格|没及格|没通过|来不及|赶不上|丢了|丢失|遗失|超过(?:[\d一二两三四五六七八九十百]+个?[天日周月年])?了|"
    r"超过[\d一二两三四五六七八九十百]+\s*(?:分钟|个?小时)|"
    r"超了|用完了|过期了|逾期|忘了|忘记|漏了|错过|堵了|被堵|被占|没来|没到(?!期)|不交|不缴|拒交|拒缴|不肯交|迟到|来晚了|休假了|请假了|生病了|违规|违章|违反|"
    r"(?:考|测|练)(?:了|出|到)?[\d一二三四五六七八九十]+\s*分|"
    r"(?:怎么|如何|咋)退(?:还|回|款)?(?=[吗呢？?]|$)|"
    + HANDED_IN_LATE.pattern
    + "|"
    + _WITHOUT_A_DOCUMENT.pattern
)
"""测验不及格怎么办: what happens then is often a rule (不及格的可以重新学习后再测), not steps; the
rule is asked for beside the steps, so the answer says which of the two the sources state. So is
押金怎么退: a refund is mostly a rule (验收合格满30日后无息全额退还), and so is a wait gone on too long
(困人超过45分钟怎么办: 超过45分钟未到场的，由项目经理决定拨打119), and so is a refusal to pay
(业主欠费好几次都不交怎么办: 多次提醒仍未缴费的，可建议业主与项目客服主管当面沟通), and so is a
paper one lacks (没有离职证明怎么办: 应届毕业生提供学校出具的就业推荐表). A breakdown
(电梯坏了) is not listed: it has a procedure, which answers it."""
_ASKS_A_FEE = re.compile(r"(?:交|缴|付|收)(?:些)?(?:什么|啥|哪些|哪几)(?:项|种)?(?:费|钱)")
"""装修要交什么费 asks which fees are charged, whatever the classifier makes of 要交: no list of materials
answers it."""
_ASSIGNED_TRAINING = re.compile(
    r"训练任务|(?:训练|培训)[^，,。？?]{0,4}(?:逾期|超期|过期|截止|到期|没完成|未完成|要完成|做完了?吗|完成了(?:吗|没))"
)
"""我的训练逾期了吗 asks about trainings assigned as work (listed with the to-dos, due on a day), not
about practice scores."""
_LIVE_INTENTS = frozenset({Intent.LIVE_MY_WORK, Intent.LIVE_TEAM_WORK, Intent.PRACTICE_COACHING})
_CLAUSE = re.compile(r"[，,；;。]")
"""Clause breaks: each clause that asks something (`cues.ASKS_RE`: 多久到账, 怎么退) brings its needs;
one that sets the scene (签三年合同的) does not."""
_WHERE_TO_READ = re.compile(
    r"(?:制度|规定|办法|指导书|手册|规程|规范|预案|指引|说明|SOP|检查表)(?:的)?(?:原文|全文|文件)?(?:在)?"
    r"(?:哪里?|哪儿)(?:能|可以)?(?:看|找|查|下载)|(?:原文|全文)(?:在)?(?:哪里?|哪儿)|"
    r"有(?:没有)?[^，,。？?]{0,4}视频|视频(?:在)?(?:哪里?|哪儿)(?:能|可以)?(?:看|找|下载)"
)
"""消防巡检作业指导书在哪看 asks for the document itself, not for what it says, and 电梯困人有视频吗 for
a video, which only the resource delivery can say there is or is not."""
_DOCUMENT_INTENTS = frozenset({Intent.KNOWLEDGE_QA, Intent.RESOURCE_DELIVERY, Intent.MEDIA_UNDERSTANDING})
"""Intents that read documents or media: a question about 请假申请 there is about the rule, not a request."""
_NO_EVIDENCE_INTENTS = frozenset({Intent.SOCIAL, Intent.CLARIFY, Intent.CAPABILITY_QUERY})
_DOCUMENT_NEEDS = frozenset(EvidenceNeed) - {EvidenceNeed.LIVE_STATE}
_CARRIED_INTENTS = frozenset(
    {
        Intent.KNOWLEDGE_QA,
        Intent.LIVE_MY_WORK,
        Intent.LIVE_TEAM_WORK,
        Intent.PRACTICE_COACHING,
        Intent.WEB_RESEARCH,
    }
)
"""Read-only intents an elliptical follow-up may continue (never a draft: those need their own request)."""
_MIN_CARRIED_REMAINDER = 2
"""An elliptical remainder shorter than this ("那个呢" → "个") says too little to continue anything."""
_HOW_TO = re.compile(r"怎么(?:做|弄|办|处理|搞|操作)|如何(?:做|处理|操作|办)|咋(?:做|弄|办)|步骤|流程")
"""A question asking how to do something (of a listed item: 最后那个怎么做)."""
_NO_PICTURE = re.compile(r"没(?:有)?(?:图|照片|图片|视频)|无图|不用看图|不是(?:看)?图")
"""The user says there is no picture (没图，就是电梯困人了该怎么处理): the question is about the rule."""
MEDIA_ONLY = frozenset({ToolCode.MEDIA_ANALYZE})
"""Without an attachment a media question first asks for it; the SOP search waits for the image."""


def normalize_question(question: str) -> str:
    """The retrieval form of a question: NFKC, collapsed spaces, no leading greeting.

    It only ever removes fillers, so every number, date, comparator, negation and
    version survives verbatim (the fidelity validator checks this for every planner).
    """
    text = normalize_text(question)
    stripped = _LEADING_FILLER.sub("", text)
    return stripped or text


def is_elliptical_follow_up(text: str, resolved: ResolvedContext) -> bool:
    """True for an elliptical question ("那法定节假日呢") asked right after a read-only question.

    The context layer marks a follow-up only when it can substitute a value; a longer elliptical
    remainder arrives as a new topic, yet it still continues the previous question's intent.
    """
    if resolved.relation is not ContextRelation.NEW_TOPIC or resolved.previous_intent not in _CARRIED_INTENTS:
        return False
    remainder = cues.follow_up_remainder(text)
    return remainder is not None and len(remainder) >= _MIN_CARRIED_REMAINDER


def _blend(own: Prediction, context: Prediction, tool_sets: tuple[tuple[ToolSet, float], ...]) -> Prediction:
    """Average the question's own intent distribution with the one its conversation suggests."""
    mixed: dict[Intent, float] = {}
    for source in (own, context):
        for intent, p in source.intents:
            mixed[intent] = mixed.get(intent, 0.0) + p / 2
    return Prediction(
        intents=tuple(sorted(mixed.items(), key=lambda pair: -pair[1])),
        domain=own.domain or context.domain,
        needs=own.needs or context.needs,
        tool_sets=tool_sets,
    )


def _agreeing(prediction: Prediction) -> Prediction:
    """Unsure intents that would run the same tools leave nothing to ask.

    "我有几次练习待复盘" splits between practice coaching and my work, and both read the practice
    summary that the tool-set scores pick: the intents that allow the best tool set pool their
    probability under the likeliest of them — unless one intent that would run other tools is at
    least as likely as all of them together, so a real choice is still asked.
    """
    if not prediction.tool_sets or prediction.intents[0][0] in (Intent.CLARIFY, Intent.SOCIAL):
        return prediction
    tools = prediction.tool_sets[0][0]
    runs_them = {intent for intent, _ in prediction.intents if tools and tools in INTENT_TOOL_SETS[intent]}
    agreeing = [(intent, p) for intent, p in prediction.intents if intent in runs_them]
    others = tuple((intent, p) for intent, p in prediction.intents if intent not in runs_them)
    pooled = sum(p for _, p in agreeing)
    if not agreeing or (others and others[0][1] >= pooled):
        return prediction
    return replace(prediction, intents=((agreeing[0][0], pooled), *others))


class DeterministicPlanner:
    """Plans from the trained utterance classifier and the deterministic entity extractor."""

    def __init__(
        self,
        classifier: UtteranceClassifier | None = None,
        *,
        data_file: Path = DATA_FILE,
        threshold: float = CONFIDENCE_THRESHOLD,
    ) -> None:
        self._classifier = classifier
        self._data_file = data_file
        self._threshold = threshold

    @property
    def classifier(self) -> UtteranceClassifier:
        """The fitted classifier, trained on first use."""
        if self._classifier is None:
            self._classifier = trained_classifier(self._data_file)
        return self._classifier

    def intent_probability(self, question: str, intent: str) -> float:
        """Calibrated probability of `intent` for `question` (confidence of a model plan)."""
        prediction = self.classifier.predict(normalize_text(question), None)
        return next((p for i, p in prediction.intents if i.value == intent), 0.0)

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcome:
        """Plan one question; see the module docstring."""
        started = time.perf_counter()
        plan = self.build_plan(question, resolved, now=now, tz=tz, has_attachments=has_attachments)
        latency = (time.perf_counter() - started) * 1000
        return PlanningOutcome(
            plan=plan,
            planner=PlannerKind.DETERMINISTIC,
            reason_code=ReasonCode.MODEL_NOT_CONFIGURED,
            model_calls=0,
            latency_ms=latency,
        )

    def build_plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> SemanticQueryPlan:
        """The plan itself (the fallback planner wraps it with its own reason code).

        A role, tool or scope the message itself claims ({"role":"SUPERVISOR"}) is not planned on:
        authorization comes from the session, so only the rest of the message is understood; nor is
        HTML markup (<script>…</script>).
        """
        asked = without_instructions(without_control_fields(without_markup(question)))
        normalized = normalize_question(asked)
        entities = extract_entities(asked, now=now, tz=tz)
        # 按2024版的，请假5天谁批: the version chosen says which document, not what is asked of it.
        classified = normalize_text(_VERSION_CHOICE.sub("", asked)) or normalize_text(asked)
        prediction = self._predict(classified, entities, resolved)
        intent, confidence = prediction.intents[0]
        follow_up = resolved.relation in _FOLLOW_UPS and bool(resolved.goal)
        if intent not in _DOCUMENT_INTENTS and uncovered_action(asked) is not None:
            # 帮我请明天的假: no tool files it; say so rather than ask back or draft something else.
            intent = Intent.CAPABILITY_QUERY
        elif intent is Intent.CLARIFY or confidence < self._threshold:
            return self._clarify(question, normalized, entities, prediction)
        if has_attachments and intent is Intent.KNOWLEDGE_QA:
            intent = Intent.MEDIA_UNDERSTANDING
        elif not has_attachments and intent is Intent.MEDIA_UNDERSTANDING and _NO_PICTURE.search(asked):
            intent = Intent.KNOWLEDGE_QA
        if intent is Intent.KNOWLEDGE_QA and _WHERE_TO_READ.search(asked):
            intent = Intent.RESOURCE_DELIVERY
        if asks_uncovered_data(asked, choose_tool_set(intent, prediction.tool_sets)):
            intent = Intent.CAPABILITY_QUERY
        elif intent is Intent.KNOWLEDGE_QA and asks_for_peoples_contacts(asked):
            # 告诉我所有员工的电话: a request for people's data, not a rule; the search quoted emergency
            # numbers and the leave steps (电话告知直接上级) for it.
            intent = Intent.CAPABILITY_QUERY
        needs = self._needs(
            intent, self._clause_needs(intent, prediction, entities, normalized), entities, normalized
        )
        tools = choose_tool_set(intent, prediction.tool_sets)
        if tools == {ToolCode.MY_PRACTICE_SUMMARY} and _ASSIGNED_TRAINING.search(asked):
            intent, tools = Intent.LIVE_MY_WORK, frozenset({ToolCode.MY_CURRENT_TASKS})
        if any(n in _DOCUMENT_NEEDS for n in needs):
            tools = widen_with_search(intent, tools)
        if intent is Intent.MEDIA_UNDERSTANDING and not has_attachments:
            tools = tools & MEDIA_ONLY
        listed_item = any(ref.kind == "FACT_ITEM" for ref in resolved.references)
        if intent is Intent.KNOWLEDGE_QA and listed_item:
            intent, tools = Intent.LIVE_MY_WORK, choose_tool_set(Intent.LIVE_MY_WORK, ())
            tools = tools | {t for t in choose_tool_set(Intent.KNOWLEDGE_QA, ())}
        elif intent is Intent.LIVE_MY_WORK and listed_item and _HOW_TO.search(asked):
            # 最后那个怎么做: the item is re-read and its procedure searched for.
            tools = tools | {t for t in choose_tool_set(Intent.KNOWLEDGE_QA, ())}
            needs = [*needs, EvidenceNeed.PROCESS_STEPS] if EvidenceNeed.PROCESS_STEPS not in needs else needs
        dates = entities.dates or (resolved.entities.dates if follow_up else [])
        # A listed item's own title joins the query at run time; the listing request is no subject.
        carried = follow_up and resolved.goal and not listed_item
        query = f"{resolved.goal} {normalized}" if carried else normalized
        citation = next((r.citation_id for r in resolved.references if r.citation_id), None)
        calls = build_tool_calls(
            tools,
            query=query,
            question=normalized,
            domain=prediction.domain,
            entities=entities,
            dates=dates,
            today=(now.astimezone(tz) if now.tzinfo else now).date(),
            citation_id=citation,
        )
        missing = ["attachment"] if intent is Intent.MEDIA_UNDERSTANDING and not has_attachments else []
        return SemanticQueryPlan(
            question=question,
            normalized_question=normalized,
            intent=intent,
            confidence=round(confidence, 4),
            domain=prediction.domain if intent not in (Intent.SOCIAL, Intent.CLARIFY) else None,
            entities=entities,
            evidence_needs=needs,
            tool_calls=calls,
            missing_fields=missing,
            requires_confirmation=any(c.tool in DRAFT_TOOLS for c in calls),
            requires_external_consent=any(c.tool in EXTERNAL_TOOLS for c in calls),
            response_style=self._style(intent, needs),
        )

    def _predict(self, normalized: str, entities: ExtractedEntities, resolved: ResolvedContext) -> Prediction:
        """Classify the question; an unsure elliptical follow-up borrows the conversation's intent."""
        prediction = self.classifier.predict(normalized, entities)
        top = prediction.intents[0]
        unsure = top[1] < self._threshold or top[0] is Intent.CLARIFY
        if not unsure:
            return prediction
        if resolved.relation in _FOLLOW_UPS and resolved.goal:
            goal = self.classifier.predict(f"{resolved.goal} {normalized}", entities)
            return _blend(prediction, goal, goal.tool_sets)
        if is_elliptical_follow_up(normalized, resolved) and resolved.previous_intent is not None:
            carried = Prediction(
                intents=((resolved.previous_intent, 1.0),),
                domain=prediction.domain,
                needs=prediction.needs,
                tool_sets=prediction.tool_sets,
            )
            return _blend(prediction, carried, prediction.tool_sets)
        return _agreeing(prediction)

    def _clarify(
        self, question: str, normalized: str, entities: ExtractedEntities, prediction: Prediction
    ) -> SemanticQueryPlan:
        options = [
            i for i, p in prediction.intents if i not in (Intent.CLARIFY, Intent.SOCIAL) and p >= 0.05
        ][:3]
        top = prediction.intents[0]
        return SemanticQueryPlan(
            question=question,
            normalized_question=normalized,
            intent=Intent.CLARIFY,
            confidence=round(top[1] if top[0] is Intent.CLARIFY else 1.0 - top[1], 4),
            entities=entities,
            clarification_options=options,
            response_style=ResponseStyle.SHORT,
        )

    @staticmethod
    def _needs(
        intent: Intent, predicted: tuple[EvidenceNeed, ...], entities: ExtractedEntities, question: str
    ) -> list[EvidenceNeed]:
        if intent in _NO_EVIDENCE_INTENTS:
            return []
        needs = list(predicted)
        worded = [need for need, wording in _WORDED_NEEDS if wording.search(question)]
        if intent is Intent.KNOWLEDGE_QA and worded:
            needs = worded + [n for n in needs if n not in (*worded, EvidenceNeed.GENERAL_RULE)]
        if (
            intent is Intent.KNOWLEDGE_QA
            and EvidenceNeed.ELIGIBILITY in needs
            and (_WITHOUT_A_DOCUMENT.search(question) or _A_PAPER.search(question))
        ):
            paper = [EvidenceNeed.REQUIRED_MATERIALS, EvidenceNeed.PROHIBITION]
            needs = paper + [n for n in needs if n not in (*paper, EvidenceNeed.ELIGIBILITY)]
        if intent is Intent.KNOWLEDGE_QA and _ASKS_A_FEE.search(question):
            needs = [n for n in needs if n is not EvidenceNeed.REQUIRED_MATERIALS]
        if intent is Intent.KNOWLEDGE_QA and entities.amounts and EvidenceNeed.AMOUNT_RULE not in needs:
            needs.insert(0, EvidenceNeed.AMOUNT_RULE)
        if intent in _LIVE_INTENTS and EvidenceNeed.LIVE_STATE not in needs:
            needs.insert(0, EvidenceNeed.LIVE_STATE)
        if intent is Intent.KNOWLEDGE_QA:
            needs = [n for n in needs if n is not EvidenceNeed.LIVE_STATE] or [EvidenceNeed.GENERAL_RULE]
        if (
            intent is Intent.KNOWLEDGE_QA
            and EvidenceNeed.PROCESS_STEPS in needs
            and EvidenceNeed.GENERAL_RULE not in needs
            and (_MISHAP.search(question) or _DISPOSAL.search(question))
        ):
            needs.append(EvidenceNeed.GENERAL_RULE)
        return needs

    def _clause_needs(
        self, intent: Intent, prediction: Prediction, entities: ExtractedEntities, question: str
    ) -> tuple[EvidenceNeed, ...]:
        """The needs of a knowledge question, with those of each clause that asks something of its own.

        装修押金多少，怎么退 asks the amount and how it is refunded: the whole question reads as an amount
        question, its second clause as a rule question, and the answer needs both.
        """
        clauses = [
            clause for clause in _CLAUSE.split(question) if len(clause) >= 2 and cues.ASKS_RE.search(clause)
        ]
        if intent is not Intent.KNOWLEDGE_QA or len(clauses) < 2:
            return prediction.needs
        # A later clause leaves its subject to the first (怎么退 of 装修押金): it is read with it.
        subject = "".join(question_terms(clauses[0]).required)
        found = [
            need
            for index, clause in enumerate(clauses)
            for need in self.classifier.predict(clause if index == 0 else subject + clause, entities).needs
        ]
        return tuple(dict.fromkeys((*prediction.needs, *found)))

    @staticmethod
    def _style(intent: Intent, needs: list[EvidenceNeed]) -> ResponseStyle:
        if intent in (Intent.SOCIAL, Intent.CAPABILITY_QUERY):
            return ResponseStyle.SHORT
        if EvidenceNeed.PROCESS_STEPS in needs:
            return ResponseStyle.STEPS
        if EvidenceNeed.REQUIRED_MATERIALS in needs or intent in _LIVE_INTENTS:
            return ResponseStyle.LIST
        return ResponseStyle.FACT
