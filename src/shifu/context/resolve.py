"""Resolve a question against the conversation state: relation, goal, references, gaps.

Conversation repair, not intent classification: the resolver decides whether the question
is a new topic, a follow-up on the previous frame ("满20年呢"), a correction ("不对，是上个
月"), a reference to something listed or cited ("第二项", "刚才那份") or a cancel ("算了").
It resolves references to server-side ids only (factRef / citationId) — never to content —
and when a reference has nothing to point at it reports REFERENCE_UNRESOLVED so the runtime
asks (NEEDS_INPUT) instead of guessing. User claims ("我是主管") become USER_ASSERTIONs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from shifu.context import cues
from shifu.context.state import AnswerItemRecord, ConversationState, PendingItem, PendingKind, QuestionFrame
from shifu.context.transitions import cancel_pending, invalidate_fact_refs
from shifu.contracts.common import ContextRelation, Intent
from shifu.contracts.context import ResolvedContext, ResolvedReference, UserAssertion
from shifu.contracts.entities import DocumentRef, ExtractedEntities, OrdinalRef, PersonMention
from shifu.contracts.messages import MAX_QUESTION_CHARS
from shifu.nlp.lay_words import PROCEDURE_TOPICS
from shifu.nlp.terms import question_terms

REFERENCE_UNRESOLVED = "REFERENCE_UNRESOLVED"
"""Gap: a reference, follow-up or correction with nothing in the conversation to point at."""
CORRECTION_VALUE_MISSING = "CORRECTION_VALUE_MISSING"
"""Gap: "不对" without saying what is right."""
REFERENCE_AMBIGUOUS = "REFERENCE_AMBIGUOUS"
"""Gap: "第二项" when the last answer numbered two lists, each with a second item."""

_UNIT_SUFFIX_RE = re.compile(r"(元|块钱|块|万元|万)$")
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_WEEK_PREFIX_RE = re.compile(r"^(?:上上|上|下下|下|本|这个|这)(?:个)?(?=周|星期|礼拜)")
_BARE_WEEKDAY_RE = re.compile(r"^(?:周|星期|礼拜)[一二三四五六日天1-7]$")
_SUBSTITUTABLE = ("dates", "durations", "amounts", "locations", "versions")
_READS_ABOUT_PEOPLE = frozenset({Intent.LIVE_TEAM_WORK})
"""孙八这周练了几次 → 周九呢 reads 周九's record; a draft for 孙八 is not re-aimed at 周九 by ellipsis (a
draft needs its own request), and the policy gate still decides whose record may be read."""


def _substitutable(frame: QuestionFrame | None) -> tuple[str, ...]:
    """The kinds of value a follow-up may swap in `frame`: a member's name only in a team read."""
    if frame is not None and frame.intent in _READS_ABOUT_PEOPLE:
        return (*_SUBSTITUTABLE, "persons")
    return _SUBSTITUTABLE


@dataclass(frozen=True)
class Resolution:
    """Everything the runtime needs from context resolution for one question."""

    context: ResolvedContext
    """The resolved context handed to the planner."""
    effective_question: str
    """What the planner should plan: the question, or the previous frame with the new value."""
    state: ConversationState
    """The state after repair (a correction drops old fact refs; a cancel clears the pending item)."""
    cancelled: PendingItem | None = None
    """The draft or clarification a CANCEL closed, if any."""


_FRAMELESS_INTENTS = frozenset({Intent.SOCIAL, Intent.CLARIFY})
_SUBJECT_FRAMES = frozenset({Intent.KNOWLEDGE_QA, Intent.CLARIFY})
"""Frames whose subject a subjectless question continues: a knowledge question or a bare topic."""
_LIVE_FRAMES = frozenset({Intent.LIVE_MY_WORK, Intent.LIVE_TEAM_WORK})
"""Frames of a read of live records: a follow-up may name another record over the same window."""
_DUE_CUE = re.compile(r"截止|期限|之前|以前|前完成|前做完|前交")
"""Words that make a day a due day (下周三前完成, 截止日期下周三)."""
_NAMES_A_RECORD = re.compile(r"待办|任务|工单|成果|练习|训练|复盘|资料|面试|进度")
"""A question naming a kind of live record reads that record, not the one just listed."""
_READ_DETAILS = frozenset(
    {"平均", "平均分", "分数", "得分", "最高分", "最低分", "最急", "没交", "没做", "没完成", "逾期", "截止"}
    | {"最差", "最好", "最高", "最低"}
)
"""What a question may ask of the records just listed (平均多少分, 谁还没交, 哪个最急, 哪次最差) without
naming them again."""


def turn_frame(
    resolution: Resolution, *, intent: Intent | None, entities: ExtractedEntities
) -> QuestionFrame | None:
    """The frame to remember after this turn, or None to keep the previous goal.

    A reference ("第二项"), a cancel, an unresolved turn or small talk keeps the goal, so a
    later follow-up or correction still re-plans the question the user was working on. A bare
    topic that was asked back ("报销") becomes the frame whose subject the next question takes.
    `entities` are those of the effective question.
    """
    relation = resolution.context.relation
    if relation in (ContextRelation.REFERENCE, ContextRelation.CANCEL) or resolution.context.gaps:
        return None
    question = resolution.effective_question
    if intent is Intent.CLARIFY and names_only_a_subject(question):
        # "报销" alone was asked back; the next "要哪些材料" is about it.
        return QuestionFrame(question=question, intent=intent, entities=entities)
    if intent in _FRAMELESS_INTENTS:
        return None
    return QuestionFrame(question=question, intent=intent, entities=entities)


def find_assertions(question: str, entities: ExtractedEntities) -> list[UserAssertion]:
    """Claims about role, permission or identity; recorded as USER_ASSERTION, never authorization."""
    found: list[UserAssertion] = []
    role = cues.ROLE_CLAIM_RE.search(question)
    if role:
        found.append(UserAssertion(kind="ROLE_CLAIM", text=role.group(0)))
    permission = cues.PERMISSION_CLAIM_RE.search(question)
    if permission:
        found.append(UserAssertion(kind="PERMISSION_CLAIM", text=permission.group(0)))
    identity = None if role else cues.IDENTITY_CLAIM_RE.search(question)
    if identity:
        name = identity.group(1)
        named = {person.name for person in entities.persons}
        if name in named or name[0] in cues.SURNAMES:
            found.append(UserAssertion(kind="IDENTITY_CLAIM", text=identity.group(0).rstrip("，,。")))
    return found


def _ordinals(question: str, entities: ExtractedEntities) -> list[OrdinalRef]:
    return list(entities.ordinals) or cues.find_ordinals(question)


STEP = "STEP"
"""The kind of an answer item that was a step of the answer's 办理步骤 (`AnswerItemRecord.kind`)."""

OWN_SUBJECT_IDF = 9.0
"""A question term this specific, absent from the previous question, names a subject of its own."""


def _step_ordinals(question: str, state: ConversationState) -> list[OrdinalRef]:
    """第二步 of the last answer's steps: only right after an answer listed steps, and only when the
    question names no subject of its own (发现火情第一步做什么 asks about 火情's first step)."""
    if not any(item.kind == STEP for item in state.answer_items):
        return []
    before = state.frame.question if state.frame is not None else ""
    asked = cues.STEP_ORDINAL_RE.sub(" ", question)
    own = [t for t in question_terms(asked).terms if t.weight >= OWN_SUBJECT_IDF and t.text not in before]
    return [] if own else cues.find_step_ordinals(question)


def _document_refs(question: str, entities: ExtractedEntities) -> list[DocumentRef]:
    return list(entities.document_refs) or cues.find_document_refs(question)


def _pick(count: int, index: int) -> int | None:
    """0-based position for a 1-based ordinal (-1 = last), or None when out of range."""
    if count == 0:
        return None
    position = count - 1 if index == -1 else index - 1
    return position if 0 <= position < count else None


def _answer_items(items: Sequence[AnswerItemRecord], index: int) -> list[AnswerItemRecord]:
    """The answer items numbered `index` (-1: the last item of each list).

    第二项 points at the answer's numbered items (材料 1–6) and at its 办理步骤 only when it
    numbered nothing else. Two numbered lists (one per source) may both have a second item:
    then more than one is returned, and the caller asks back rather than guesses.
    """
    listed = [item for item in items if item.kind == "ITEM"]
    items = listed or list(items)
    if index == -1:
        return list({item.citation_id: item for item in items}.values())
    return [item for item in items if item.number == index]


def _resolve_references(
    question: str, state: ConversationState, entities: ExtractedEntities
) -> tuple[list[ResolvedReference], bool, str | None]:
    """(references, found any referring expression, the gap when one of them is not resolved)."""
    references: list[ResolvedReference] = []
    ordinals = _ordinals(question, entities)
    steps = [] if ordinals else _step_ordinals(question, state)
    ordinals = ordinals or steps
    documents = _document_refs(question, entities)
    problem: str | None = None
    document_keys = list(dict.fromkeys(c.document_key for c in state.citations))
    for ordinal in ordinals:
        if state.fact_refs and not steps:
            position = _pick(len(state.fact_refs), ordinal.index)
            if position is not None:
                ref = state.fact_refs[position]
                references.append(ResolvedReference(kind="FACT_ITEM", fact_ref=ref.ref_id, text=ordinal.text))
                continue
        elif state.answer_items:
            items = [i for i in state.answer_items if i.kind == STEP] if steps else state.answer_items
            matches = _answer_items(items, ordinal.index)
            if len(matches) == 1:
                item = matches[0]
                references.append(
                    ResolvedReference(
                        kind="ANSWER_ITEM", citation_id=item.citation_id, item=item.number, text=ordinal.text
                    )
                )
                continue
            if matches:
                problem = REFERENCE_AMBIGUOUS
                continue
        elif document_keys:
            position = _pick(len(document_keys), ordinal.index)
            if position is not None:
                key = document_keys[position]
                citation = next(c for c in state.citations if c.document_key == key)
                references.append(
                    ResolvedReference(kind="DOCUMENT", citation_id=citation.citation_id, text=ordinal.text)
                )
                continue
        problem = problem or REFERENCE_UNRESOLVED
    if documents and not ordinals:
        anaphoric = any(cues.ANAPHORIC_DOCUMENT_RE.search(d.text) for d in documents) or bool(
            cues.ANAPHORIC_DOCUMENT_RE.search(question)
        )
        if cues.NAMED_DOCUMENT_RE.search(question) and not anaphoric:
            # 把报销制度原件发我 names its document: it refers to nothing said before.
            return references, False, problem
        if state.citations:
            first = state.citations[0]
            references.append(
                ResolvedReference(kind="DOCUMENT", citation_id=first.citation_id, text=documents[0].text)
            )
        else:
            problem = problem or REFERENCE_UNRESOLVED
    return references, bool(ordinals or documents), problem


def _asked_of_another_item(
    question: str, state: ConversationState, entities: ExtractedEntities
) -> str | None:
    """第三项呢 right after 第二项怎么做: the question asked of the last item, of the item now named."""
    asked = state.item_question
    remainder = cues.follow_up_remainder(question)
    ordinals = _ordinals(question, entities)
    if asked is None or remainder is None or len(ordinals) != 1 or remainder != ordinals[0].text:
        return None
    previous = cues.find_ordinals(asked)
    if len(previous) != 1 or previous[0].text not in asked:
        return None
    return asked.replace(previous[0].text, ordinals[0].text, 1)


def _has_value(entities: ExtractedEntities, remainder: str) -> bool:
    return any(getattr(entities, kind) for kind in _SUBSTITUTABLE) or bool(
        cues.BARE_NUMBER_RE.match(remainder)
    )


def _substitutes(frame: QuestionFrame | None, entities: ExtractedEntities) -> bool:
    """True when the new value has a counterpart of the same kind in the previous question."""
    return frame is not None and any(
        getattr(entities, kind) and getattr(frame.entities, kind) for kind in _substitutable(frame)
    )


def _residual(remainder: str, entities: ExtractedEntities) -> str:
    """The remainder without its values: what the follow-up says besides the new value."""
    for kind in _SUBSTITUTABLE:
        for item in getattr(entities, kind):
            remainder = remainder.replace(item.text, "")
    return _NUMBER_RE.sub("", remainder)


def _is_follow_up(remainder: str, entities: ExtractedEntities, frame: QuestionFrame | None) -> bool:
    """A cue-marked utterance is a follow-up when it is short and only swaps a value, or is very short.

    "那我本周的待办呢" says more than a value ("我的待办") and has no counterpart in the
    previous question, so it is a question of its own, not a follow-up.
    """
    if len(remainder) > cues.MAX_FOLLOW_UP_CHARS or cues.SELF_CONTAINED_RE.search(remainder):
        return False
    if cues.BARE_DEMONSTRATIVE_RE.match(remainder) or (
        len(remainder) <= 1 and not _has_value(entities, remainder)
    ):
        return False
    if _substitutes(frame, entities):
        return True
    if (
        frame is not None
        and frame.intent is Intent.KNOWLEDGE_QA
        and len(remainder) <= cues.KNOWLEDGE_FOLLOW_UP_CHARS
    ):
        return True
    if len(_residual(remainder, entities)) > cues.MAX_RESIDUAL_CHARS:
        return False
    return _has_value(entities, remainder) or len(remainder) <= cues.SHORT_FOLLOW_UP_CHARS


def resolve(question: str, state: ConversationState, *, entities: ExtractedEntities) -> Resolution:
    """Resolve `question` against `state`; pure (the caller commits the returned state).

    A follow-up or completion that would outgrow a question (a long previous question plus the
    new words) is planned as the user's own words instead: nothing is cut, nothing fails.
    """
    resolution = _resolve(question, state, entities=entities)
    if len(resolution.effective_question) > MAX_QUESTION_CHARS:
        return replace(resolution, effective_question=question)
    return resolution


def _resolve(question: str, state: ConversationState, *, entities: ExtractedEntities) -> Resolution:
    frame = state.frame
    base = {
        "goal": frame.question if frame else None,
        "previous_intent": frame.intent if frame else None,
        "entities": entities,
        "user_assertions": find_assertions(question, entities),
    }
    if cues.is_cancel(question):
        next_state, cancelled = cancel_pending(state)
        context = ResolvedContext(relation=ContextRelation.CANCEL, **base)
        return Resolution(context, question, next_state, cancelled)

    pending = state.pending
    awaits_input = pending is not None and pending.kind is PendingKind.DRAFT_INPUT
    if awaits_input and frame is not None and cues.supplies_a_field(question):
        # 给他派一个消防巡检的训练 → 孙八: the request is planned again with the value it lacked; the
        # incomplete draft is closed so only the completed one stays open.
        return _redrafted(question, question, frame, state, base)

    drafted = pending is not None and pending.kind is PendingKind.DRAFT
    if (
        drafted
        and frame is not None
        and frame.intent is Intent.DRAFT_ACTION
        and _sets_a_due_day(question, entities)
    ):
        # 截止日期下周三 after 给周九派个投诉接待的训练: the draft is made again with that due day, and
        # the first draft is closed so only the new one waits for confirmation.
        return _redrafted(question, question, frame, state, base)

    choice = cues.visibility_choice(question)
    noting = frame is not None and frame.intent is Intent.CAPTURE_FACT
    if choice is not None and pending is not None and frame is not None and noting:
        # 仅自己可见 after 记一下…: the note is drafted again with the visibility chosen, the first
        # draft closed, and the new one still waits for the card's confirmation.
        return _redrafted(question, choice, frame, state, base)

    correction = cues.correction_remainder(question)
    if correction is not None:
        frame_ref = [ResolvedReference(kind="FRAME", text=question)] if frame else []
        gaps = [] if frame else [REFERENCE_UNRESOLVED]
        if frame and not _has_value(entities, correction):
            gaps.append(CORRECTION_VALUE_MISSING)
        context = ResolvedContext(
            relation=ContextRelation.CORRECTION, references=frame_ref, gaps=gaps, **base
        )
        effective = substitute(frame, correction, entities) if frame and not gaps else question
        return Resolution(context, effective, invalidate_fact_refs(state))

    references, referring, problem = _resolve_references(question, state, entities)
    if referring:
        gaps = [problem] if problem else []
        context = ResolvedContext(
            relation=ContextRelation.REFERENCE, references=references, gaps=gaps, **base
        )
        asked_again = None if gaps else _asked_of_another_item(question, state, entities)
        return Resolution(context, asked_again or question, state)

    remainder = cues.follow_up_remainder(question)
    if remainder is not None and _is_follow_up(remainder, entities, frame):
        if frame is None:
            context = ResolvedContext(relation=ContextRelation.FOLLOW_UP, gaps=[REFERENCE_UNRESOLVED], **base)
            return Resolution(context, question, state)
        context = ResolvedContext(
            relation=ContextRelation.FOLLOW_UP,
            references=[ResolvedReference(kind="FRAME", text=question)],
            **base,
        )
        switched = _asks_another_kind(remainder, frame) or _asks_another_record(remainder, frame)
        valued = switched or _value_substituted(frame, remainder, entities)
        replaced = None if valued else _sibling_replaced(frame, remainder)
        if replaced is not None:
            # 产假几天 stands alone: searching the old goal (婚假几天) with it would let 婚假 answer.
            return Resolution(context.model_copy(update={"goal": None}), replaced, state)
        return Resolution(context, valued or substitute(frame, remainder, entities), state)

    if frame is not None and _chooses_a_value(question, entities, frame):
        context = ResolvedContext(
            relation=ContextRelation.FOLLOW_UP,
            references=[ResolvedReference(kind="FRAME", text=question)],
            **base,
        )
        return Resolution(context, substitute(frame, question, entities), state)

    named = _named_pronoun(question, entities, frame)
    if named is not None:
        context = ResolvedContext(relation=ContextRelation.NEW_TOPIC, **{**base, "goal": None})
        return Resolution(context, named, state)

    continued = _continued_read(question, entities, frame)
    if continued is not None:
        context = ResolvedContext(relation=ContextRelation.NEW_TOPIC, **{**base, "goal": None})
        return Resolution(context, continued, state)

    # A new question on the previous subject (its own ask, so the old goal is not searched
    # again), or the subject the previous, subjectless question was asked back for.
    subject = _inherited_subject(question, frame)
    if subject and frame is not None and not entities.versions:
        # The version chosen for the subject ("按2025版") still holds for the next question on it.
        subject += _chosen_versions(frame)
    effective = f"{subject}{question}" if subject else _completed_question(question, frame) or question
    context = ResolvedContext(relation=ContextRelation.NEW_TOPIC, **{**base, "goal": None})
    return Resolution(context, effective, state)


def _redrafted(
    question: str, addition: str, frame: QuestionFrame, state: ConversationState, base: dict[str, Any]
) -> Resolution:
    """The open draft's request planned again with `addition` (a value it lacked or a choice made),
    the open draft closed so only the new one waits for confirmation."""
    context = ResolvedContext(
        relation=ContextRelation.FOLLOW_UP,
        references=[ResolvedReference(kind="FRAME", text=question)],
        **{**base, "goal": None},
    )
    next_state, closed = cancel_pending(state)
    return Resolution(context, f"{frame.question}，{addition}", next_state, closed)


def _sets_a_due_day(question: str, entities: ExtractedEntities) -> bool:
    """A short reply saying only by when (截止日期下周三 / 下周五前完成), to a draft awaiting confirmation."""
    single_days = [span for span in entities.dates if span.start == span.end]
    return bool(single_days) and bool(_DUE_CUE.search(question)) and cues.supplies_a_field(question)


def _continued_read(question: str, entities: ExtractedEntities, frame: QuestionFrame | None) -> str | None:
    """The previous live read with a question about the records it listed, or None.

    平均多少分 right after 我这个月练了几次 asks this month's average, and 谁还没交 after
    这个月团队成果交了多少 asks who submitted no result: the window and the records are the
    previous read's. A question naming its own window, person or kind of record (谁还没练习)
    is a read of its own.
    """
    if frame is None or frame.intent not in _LIVE_FRAMES:
        return None
    if len(question) > cues.SUBJECTLESS_MAX_CHARS or not cues.ASKS_RE.search(question):
        return None
    if entities.dates or entities.persons or _NAMES_A_RECORD.search(question):
        return None
    terms = question_terms(question).terms
    if terms and any(term.text not in _READ_DETAILS for term in terms):
        return None
    # 谁分最低: the segmenter leaves no term, but the words still ask about the scores listed.
    if not terms and not any(detail in question for detail in _READ_DETAILS):
        return None
    return f"{frame.question.rstrip(cues.TRAILING_PUNCTUATION)}，{question}"


_THIRD_PERSON = re.compile(r"(?<![其吉])[他她](?![们人])")
"""他 / 她 standing for one person; 他们, 其他, 他人 and 吉他 are other words."""


def _named_pronoun(question: str, entities: ExtractedEntities, frame: QuestionFrame | None) -> str | None:
    """`question` with its 他/她 replaced by the one person the previous question named, or None.

    孙八这个月练得怎么样 → 他需要复盘吗 asks whether 孙八 needs a review, not whether anyone does.
    With no person, or several, before, nothing is guessed.
    """
    if frame is None or entities.persons or len(_THIRD_PERSON.findall(question)) != 1:
        return None
    people = {person.name for person in frame.entities.persons}
    if len(people) != 1:
        return None
    return _THIRD_PERSON.sub(people.pop(), question, count=1)


def _inherited_subject(question: str, frame: QuestionFrame | None) -> str | None:
    """The previous knowledge question's subject, when `question` asks something without one.

    "要谁批" or "超过30天还能报吗" right after a reimbursement question is about reimbursement;
    on its own it names nothing a document could be about. Only a short question that asks
    something and names no salient term inherits the subject (the previous question's most
    specific term: 报销 of 报销需要提交哪些材料); "好的" asks nothing.
    """
    if frame is None or frame.intent not in _SUBJECT_FRAMES:
        return None
    if len(question) > cues.SUBJECTLESS_MAX_CHARS or not cues.ASKS_RE.search(question):
        return None
    if question_terms(question).names_a_subject:
        return None
    return _previous_subject(frame)


def _chosen_versions(frame: QuestionFrame) -> str:
    """The versions the previous question chose ("按2025版"): they hold for the next question on it."""
    return "".join(version.text for version in frame.entities.versions)


def _previous_subject(frame: QuestionFrame) -> str | None:
    """The previous question's most specific term (报销 of 报销要交啥材料)."""
    previous = question_terms(frame.question)
    weights = {term.text: term.weight for term in previous.terms}
    return max(previous.required, key=lambda text: weights[text], default=None)


def _asks_another_kind(remainder: str, frame: QuestionFrame) -> str | None:
    """ "那时限呢" after 报销要交啥材料 asks the time limit of 报销, not its materials as well: the
    previous subject with the newly asked kind (报销时限), or None when the remainder is no kind."""
    if frame.intent not in _SUBJECT_FRAMES or not cues.ASKED_KIND_RE.match(remainder):
        return None
    subject = _previous_subject(frame)
    if subject is None:
        return None
    return f"{subject}{remainder}{_chosen_versions(frame)}"


def _asks_another_record(remainder: str, frame: QuestionFrame) -> str | None:
    """ "那成果呢" after 我上个月的练习记录 asks for last month's work results, not the practice record
    again: the newly named record over the previous question's time window, or None."""
    if frame.intent not in _LIVE_FRAMES or not cues.LIVE_RECORD_RE.match(remainder):
        return None
    window = "".join(date.text for date in frame.entities.dates[:1])
    owner = "团队" if frame.intent is Intent.LIVE_TEAM_WORK else "我"
    return f"{owner}{window}的{remainder.removeprefix('的')}"


def _chooses_a_value(question: str, entities: ExtractedEntities, frame: QuestionFrame) -> bool:
    """A bare value after a knowledge question ("按2025版的来") completes that question.

    It names no subject and asks nothing, so the previous question is re-planned with the value.
    """
    if frame.intent is not Intent.KNOWLEDGE_QA or len(question) > cues.SUBJECTLESS_MAX_CHARS:
        return False
    if cues.ASKS_RE.search(question):
        return False
    return _has_value(entities, question) and question_terms(question).empty


def _completed_question(question: str, frame: QuestionFrame | None) -> str | None:
    """The previous, subjectless knowledge question with the subject the user now names.

    "超过30天还能报吗" was asked back (which matter?); "报销" answers it. A reply that asks
    something of its own, or names nothing, completes nothing.
    """
    if frame is None or frame.intent is not Intent.KNOWLEDGE_QA:
        return None
    if not names_only_a_subject(question) or question_terms(frame.question).names_a_subject:
        return None
    return f"{question.rstrip(cues.TRAILING_PUNCTUATION)}{frame.question}"


def names_only_a_subject(question: str) -> bool:
    """A short utterance that names a subject and asks nothing ("报销", "报销的")."""
    if len(question) > cues.SUBJECT_REPLY_MAX_CHARS or cues.ASKS_RE.search(question):
        return False
    return question_terms(question).names_a_subject


def resolve_context(
    question: str, state: ConversationState, *, entities: ExtractedEntities
) -> ResolvedContext:
    """The ResolvedContext of `question` (see `resolve` for the effective question and state)."""
    return resolve(question, state, entities=entities).context


def effective_question(question: str, state: ConversationState, *, entities: ExtractedEntities) -> str:
    """The question the planner should plan ("满20年呢" → the previous question with 20年)."""
    return resolve(question, state, entities=entities).effective_question


def _replace_amount(old_text: str, new_text: str) -> str:
    """Keep the old unit when the new value is bare ("500元" + "3000" → "3000元")."""
    unit = _UNIT_SUFFIX_RE.search(old_text)
    if unit and not _UNIT_SUFFIX_RE.search(new_text):
        return new_text + unit.group(1)
    return new_text


def _replace_day(old_text: str, new_text: str) -> str:
    """Keep the old week when the new weekday is bare ("下周五" + "周四" → "下周四")."""
    week = _WEEK_PREFIX_RE.match(old_text)
    if week and _BARE_WEEKDAY_RE.match(new_text):
        return week.group(0) + new_text
    return new_text


def substitute(frame: QuestionFrame, remainder: str, entities: ExtractedEntities) -> str:
    """The previous question with the first entity of a matching kind replaced by the new one.

    Falls back to "<new value>，<previous question>" when the previous question has no
    entity of that kind, so the planner still sees both.
    """
    replaced = _value_substituted(frame, remainder, entities)
    if replaced is not None:
        return replaced
    return f"{remainder}，{frame.question}" if remainder else frame.question


def _surface(value: Any) -> str:
    """How a value was written: a person by name (孙八 → 周九呢), anything else by its text."""
    return str(value.name if isinstance(value, PersonMention) else value.text)


def _value_substituted(frame: QuestionFrame, remainder: str, entities: ExtractedEntities) -> str | None:
    """The previous question with a value of the remainder in place of its own, or None."""
    previous = frame.question
    for kind in _substitutable(frame):
        stated = getattr(entities, kind)
        # The corrected value is the one in the remainder ("不是本周，我说的是下周" → 下周).
        new_items = [item for item in stated if _surface(item) in remainder] or stated[-1:]
        old_items = getattr(frame.entities, kind)
        if not new_items or not old_items:
            continue
        old_text, new_text = _surface(old_items[0]), _surface(new_items[0])
        if kind == "amounts":
            new_text = _replace_amount(old_text, new_text)
        if kind == "dates":
            new_text = _replace_day(old_text, new_text)
        if old_text in previous:
            return previous.replace(old_text, new_text, 1)
    if cues.BARE_NUMBER_RE.match(remainder):
        for kind in ("amounts", "durations"):
            old_items = getattr(frame.entities, kind)
            if old_items and old_items[0].text in previous:
                old_text = old_items[0].text
                if _NUMBER_RE.search(old_text):
                    new_text = _NUMBER_RE.sub(remainder, old_text, count=1)
                else:
                    new_text = _replace_amount(old_text, remainder) if kind == "amounts" else remainder
                return previous.replace(old_text, new_text, 1)
    return None


def _sibling_replaced(frame: QuestionFrame, remainder: str) -> str | None:
    """The previous question about `remainder` instead of its subject, when the two are terms of one
    kind (婚假几天 → 产假呢 asks 产假几天), else None."""
    subject = _previous_subject(frame)
    if subject is None or subject not in frame.question or not _sibling_term(remainder, subject):
        return None
    return frame.question.replace(subject, remainder, 1)


def _sibling_term(remainder: str, subject: str) -> bool:
    """True when `remainder` is one term of the same kind as the previous subject (产假 after 婚假, 事假
    after 病假: one head character; 采购 after 报销: two matters with procedures of their own), so it
    takes the subject's place. Another kind of term (发票 after 报销) narrows the question instead and
    is put in front of it."""
    terms = question_terms(remainder).terms
    matters = remainder in PROCEDURE_TOPICS and subject in PROCEDURE_TOPICS
    return (
        len(terms) == 1
        and terms[0].text == remainder
        and remainder != subject
        and min(len(remainder), len(subject)) >= 2
        and (remainder[-1] == subject[-1] or matters)
    )
