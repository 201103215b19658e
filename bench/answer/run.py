"""RGB zh (noise robustness + negative rejection) on the deterministic path, two ways, same run.

Usage: `python bench/answer/run.py [--limit N]` from the repository root. Writes
`bench/results/answer.json` and `bench/results/answer.md`.

For every question and noise ratio (0, 0.2, 0.4, 0.6, 0.8, 1.0) the 5 passages are ingested as
plain-text files into their own knowledge space of a small demo deployment (org seeded, no demo
corpus, no laws) with governance COMPANY_POLICY / PUBLISHED / HUMAN_VERIFIED / production /
effective. Each case is then answered three ways:

* **agent** — the full `AgentRuntime.handle` as the demo employee whose ExecutionContext is
  narrowed to that one space: deterministic planner → policy → KNOWLEDGE_SEARCH (bounded rounds)
  → evidence evaluator → extractive composer, exactly as in production.
* **gate** — the knowledge path in isolation: the deterministic planner's plan (its evidence
  needs and search query; when it routed the question elsewhere, a KNOWLEDGE_QA plan with one
  KNOWLEDGE_SEARCH of its normalized question), `KnowledgeBase.search` (top 8, as the tool),
  `EvidenceEvaluator.evaluate` and `compose_for` with the extractive composer.
* **baseline** — naive: the top passage `KnowledgeBase.search` returns is the answer; it never
  rejects.

RGB data is CC BY-NC-SA (internal evaluation only): it is read in place, the passage files live
in a temporary directory, and the results hold question ids and codes only, never passage text.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.answer.prewarm import CACHE_DIR, prewarm, write_passage
from bench.answer.report import render_markdown, summarize
from bench.answer.rgb import SEED, Passage, PassageSet, build_sets, contains_answer, load_questions
from bench.common import RESULTS_DIR, QueryMemo, machine_facts, percentiles, write_results

from shifu.answer.compose import compose_for
from shifu.answer.extractive import ExtractiveComposer
from shifu.answer.render import citation_order, render_answer_text
from shifu.config import Settings, use_settings
from shifu.contracts.common import (
    Authority,
    Environment,
    EvidenceNeed,
    Intent,
    Lifecycle,
    Role,
    ToolCode,
    ToolStatus,
    Verification,
)
from shifu.contracts.context import ResolvedContext
from shifu.contracts.evidence import DocumentEvidence, ToolResult
from shifu.contracts.messages import AgentRequest
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.demo.setup import principal_for, seed_demo
from shifu.evidence.evaluator import EvidenceEvaluator
from shifu.evidence.status import response_status
from shifu.knowledge.access import SearchAccess
from shifu.knowledge.governance import IngestDefaults
from shifu.nlp.entities import extract_entities
from shifu.nlp.names import forget_tagged
from shifu.planning.deterministic import DeterministicPlanner
from shifu.runtime.wiring import Services, build_services

DEFAULTS = IngestDefaults(
    authority=Authority.COMPANY_POLICY,
    kind="制度",
    version="RGB",
    effective_from=date(2000, 1, 1),
    lifecycle=Lifecycle.PUBLISHED,
    verification=Verification.HUMAN_VERIFIED,
    environment=Environment.PRODUCTION,
)
SPACE = "space-rgb-bench"
"""One knowledge space holds every passage; each set is its own project scope inside it."""
TOP_K = 8
"""What the KNOWLEDGE_SEARCH tool asks the knowledge base for (runtime KnowledgePort default)."""


def without_titles(answer: str, item: PassageSet) -> str:
    """The answer minus the passage titles it names (their hash digits must never match a number)."""
    for passage in item.passages:
        answer = answer.replace(passage.stem, "")
    return answer


@dataclass
class Verdict:
    """One path's result on one case: codes and booleans only."""

    status: str
    decision: str | None
    answer_ok: bool
    citation_ok: bool
    cited: int
    latency_ms: float
    intent: str = ""
    reasons: tuple[str, ...] = ()

    @property
    def rejected(self) -> bool:
        """NO_EVIDENCE is the rejection."""
        return self.status == "NO_EVIDENCE"

    @property
    def correct(self) -> bool:
        """RGB correct (every answer element) AND a cited passage holds the answer."""
        return self.answer_ok and self.citation_ok and not self.rejected


@dataclass
class Case:
    """One (question, noise ratio)."""

    qid: int
    ratio: float
    agent: Verdict
    gate: Verdict
    baseline_ok: bool
    forced_route: bool
    needs: tuple[str, ...]


class Bench:
    """A throwaway deployment holding every passage set in its own space."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.kb = services.knowledge
        self.planner = DeterministicPlanner()
        self.evaluator = EvidenceEvaluator()
        self.composer = ExtractiveComposer()
        self.principal, self.client = principal_for("employee")

    def ingest(self, sets: list[PassageSet], folder: Path) -> int:
        """Every passage once, scoped to the sets it belongs to; one ingest call, one index flush."""
        scopes: dict[str, list[str]] = defaultdict(list)
        passages: dict[str, Passage] = {}
        for item in sets:
            for passage in item.passages:
                scopes[passage.stem].append(item.key)
                passages[passage.stem] = passage
        files = [write_passage(folder, p, scopes[stem]) for stem, p in passages.items()]
        report = self.kb.ingest_paths(files, space_id=SPACE, tenant_id="demo", defaults=DEFAULTS)
        if report.problems:
            raise RuntimeError(f"ingest refused {len(report.problems)} passages: {report.problems[:3]}")
        return len(files)

    def access(self, item: PassageSet, on_date: date) -> SearchAccess:
        """The employee's scope narrowed to the set (the bench space, the set's project scope)."""
        return SearchAccess("demo", (SPACE,), (item.key,), Role.EMPLOYEE, on_date)

    def check_isolation(self, item: PassageSet, cited: list[str]) -> None:
        """Fail loudly if anything outside the set's 5 passages was ever cited."""
        stems = {p.stem for p in item.passages}
        for cid in cited:
            fragment = self.kb.fragment(cid, self.access(item, date.today()))
            if fragment is None or fragment.document_key not in stems:
                raise RuntimeError(f"{item.key}: cited a fragment outside its passage set")

    def cited_text(self, ids: list[str], access: SearchAccess) -> str:
        """Bodies of the cited fragments, re-read through the authorized path."""
        texts = [f.text for f in (self.kb.fragment(cid, access) for cid in ids) if f is not None]
        return "\n".join(texts)

    def agent(self, item: PassageSet) -> Verdict:
        """The full runtime."""
        ctx = self.services.context_for(self.principal, self.client, None)
        ctx = ctx.model_copy(
            update={"space_ids": (SPACE,), "project_ids": (item.key,), "selected_project_id": None}
        )
        forget_tagged()
        started = time.perf_counter()
        response = self.services.runtime.handle(ctx, AgentRequest(text=item.question.query))
        latency = (time.perf_counter() - started) * 1000
        ids = [c.citation_id for c in response.citations]
        self.check_isolation(item, ids)
        cited = self.cited_text(ids, self.access(item, ctx.now.astimezone(self.services.settings.tz).date()))
        return Verdict(
            status=response.status.value,
            decision=response.decision.value if response.decision else None,
            answer_ok=contains_answer(without_titles(response.answer, item), item.question.answer),
            citation_ok=bool(cited) and contains_answer(cited, item.question.answer),
            cited=len(ids),
            latency_ms=latency,
            intent=response.intent.value,
            reasons=tuple(response.trace.reason_codes),
        )

    def plan(self, question: str, now: datetime) -> tuple[SemanticQueryPlan, bool]:
        """The deterministic plan; routed to KNOWLEDGE_QA with one search when it went elsewhere.

        A re-routed plan keeps its document needs but drops LIVE_STATE (no live tool runs here).
        """
        tz = self.services.settings.tz
        resolved = ResolvedContext(entities=extract_entities(question, now=now, tz=tz))
        plan = self.planner.plan(question, resolved, now=now, tz=tz).plan
        if any(c.tool is ToolCode.KNOWLEDGE_SEARCH for c in plan.tool_calls):
            return plan, False
        search = ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": plan.normalized_question[:500]})
        needs = [n for n in plan.evidence_needs if n is not EvidenceNeed.LIVE_STATE]  # no live tool runs here
        update = {"intent": Intent.KNOWLEDGE_QA, "tool_calls": [search], "evidence_needs": needs}
        return plan.model_copy(update=update), True

    def gate(self, item: PassageSet, now: datetime) -> tuple[Verdict, bool, tuple[str, ...], str]:
        """Search → evaluator → extractive composer, for the planner's knowledge plan."""
        on_date = now.astimezone(self.services.settings.tz).date()
        forget_tagged()
        started = time.perf_counter()
        plan, forced = self.plan(item.question.query, now)
        call = next(c for c in plan.tool_calls if c.tool is ToolCode.KNOWLEDGE_SEARCH)
        query = str(call.arguments.get("query") or plan.normalized_question)
        domain = call.arguments.get("domain")
        access = self.access(item, on_date)
        docs: list[DocumentEvidence] = self.kb.search(
            query, domain=str(domain) if domain else None, access=access, top_k=TOP_K
        )
        result = ToolResult(call=call, status=ToolStatus.OK if docs else ToolStatus.NO_RESULT, documents=docs)
        decision = self.evaluator.evaluate(plan, [result], on_date=on_date, now=now, role=Role.EMPLOYEE)
        grounded = compose_for(self.composer, plan, decision, docs, [])
        text = render_answer_text(grounded, decision, docs)
        latency = (time.perf_counter() - started) * 1000
        ids = citation_order(grounded)
        self.check_isolation(item, ids)
        by_id = {d.citation_id: d.text for d in docs}
        cited = "\n".join(by_id[i] for i in ids if i in by_id)
        reasons = tuple(f"{s.need.value}:{'COVERED' if s.covered else s.reason_code}" for s in decision.slots)
        verdict = Verdict(
            status=response_status(decision.status).value,
            decision=decision.status.value,
            answer_ok=contains_answer(without_titles(text, item), item.question.answer),
            citation_ok=bool(cited) and contains_answer(cited, item.question.answer),
            cited=len(ids),
            latency_ms=latency,
            intent=plan.intent.value,
            reasons=reasons,
        )
        return verdict, forced, tuple(n.value for n in plan.evidence_needs), query

    def baseline(self, item: PassageSet, query: str, on_date: date) -> bool:
        """Naive: the top retrieved passage is the answer (same query as the gate path)."""
        hits = self.kb.search(query, domain=None, access=self.access(item, on_date), top_k=1)
        return bool(hits) and contains_answer(hits[0].text, item.question.answer)

    def run(self, item: PassageSet) -> Case:
        """All three paths on one case."""
        now = datetime.now(UTC)
        gate, forced, needs, query = self.gate(item, now)
        return Case(
            qid=item.question.qid,
            ratio=item.ratio,
            agent=self.agent(item),
            gate=gate,
            baseline_ok=self.baseline(item, query, now.astimezone(self.services.settings.tz).date()),
            forced_route=forced,
            needs=needs,
        )


@contextmanager
def bench_deployment(prefix: str) -> Iterator[tuple[Bench, Path]]:
    """A throwaway demo deployment (org seeded, no corpus, no laws) and an empty folder for the passage
    files; both are removed afterwards. Query vectors are memoised for the run."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        settings = Settings(
            data_dir=root / "data", laws_dir=root / "no-laws", environment="demo", embedding_cache=CACHE_DIR
        )
        with use_settings(settings):
            seed_demo(settings)
            services = build_services(settings)
            try:
                services.knowledge.parts.embedder = QueryMemo(services.knowledge.parts.embedder)
                folder = root / "passages"
                folder.mkdir()
                yield Bench(services), folder
            finally:
                services.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def cases_from_payload(payload: dict[str, Any]) -> list[Case]:
    """The cases of a written result file (to re-render without re-running)."""

    def verdict(row: dict[str, Any]) -> Verdict:
        return Verdict(**{**row, "reasons": tuple(row.get("reasons", ()))})

    return [
        Case(
            qid=row["qid"],
            ratio=row["ratio"],
            agent=verdict(row["agent"]),
            gate=verdict(row["gate"]),
            baseline_ok=row["baseline_ok"],
            forced_route=row["forced_route"],
            needs=tuple(row["needs"]),
        )
        for row in payload["cases_detail"]
    ]


def rerender() -> int:
    """Recompute the summary and page from the per-case details already on disk."""
    path = RESULTS_DIR / "answer.json"
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload.update(summarize(cases_from_payload(payload)))
    write_results("answer", payload, render_markdown(payload))
    print(render_markdown(payload))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write the result files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N questions only (quick run)")
    parser.add_argument("--render-only", action="store_true", help="re-render from bench/results/answer.json")
    args = parser.parse_args(argv)
    if args.render_only:
        return rerender()
    questions = load_questions()
    if args.limit:
        questions = questions[: args.limit]
    sets = build_sets(questions)
    timings: dict[str, float] = {}
    with bench_deployment("shifu-rgb-") as (bench, folder):
        started = time.perf_counter()
        embedded = prewarm(
            bench.kb.parts.embedder, {p.stem: p for s in sets for p in s.passages}.values(), folder
        )
        timings["prewarm_s"] = time.perf_counter() - started
        started = time.perf_counter()
        ingested = bench.ingest(sets, folder)
        timings["ingest_s"] = time.perf_counter() - started
        bench.run(sets[0])  # loads the query model and the classifier outside the timings
        started = time.perf_counter()
        cases = []
        for number, item in enumerate(sets, 1):
            cases.append(bench.run(item))
            if number % 60 == 0:
                print(f"rgb {number}/{len(sets)} cases", file=sys.stderr, flush=True)
        timings["answer_s"] = time.perf_counter() - started
    summary = summarize(cases)
    payload: dict[str, Any] = {
        "benchmark": "answer.rgb_zh",
        "dataset": "RGB zh_refine.json (chen700564/RGB @65ec39e, CC BY-NC-SA 4.0, internal evaluation only)",
        "questions": len(questions),
        "cases": len(cases),
        "seed": SEED,
        "passages_embedded": embedded,
        "passages_ingested": ingested,
        "timings_s": {k: round(v, 1) for k, v in timings.items()},
        "latency_note": (
            "query vectors memoized per question text; sentence-tagging memo emptied before each timed "
            "case; end-to-end latency is bench/e2e"
        ),
        "latency": {
            "agent": percentiles([c.agent.latency_ms for c in cases]),
            "gate": percentiles([c.gate.latency_ms for c in cases]),
        },
        "model_calls": 0,
        **summary,
        "machine": machine_facts(),
        "cases_detail": [
            {
                "qid": c.qid,
                "ratio": c.ratio,
                "forced_route": c.forced_route,
                "needs": list(c.needs),
                "baseline_ok": c.baseline_ok,
                "agent": {**asdict(c.agent), "reasons": list(c.agent.reasons)},
                "gate": {**asdict(c.gate), "reasons": list(c.gate.reasons)},
            }
            for c in cases
        ],
    }
    json_path, md_path = write_results("answer", payload, render_markdown(payload))
    print(f"wrote {json_path} and {md_path}")
    counts = Counter(c.agent.status for c in cases)
    print(f"agent statuses: {dict(counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
