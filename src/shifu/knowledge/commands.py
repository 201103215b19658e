"""`shifu kb …`: ingest, check, rebuild, list, search-as-actor and fit-adapter for operators.

Every handler builds its components from `current_settings()` (so SHIFU_DATA_DIR and
SHIFU_DATABASE_URL are honoured) and applies pending migrations first.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

from shifu.config import current_settings
from shifu.contracts.common import Authority, Environment, Lifecycle, Verification
from shifu.knowledge.access import access_for_actor
from shifu.knowledge.governance import IngestDefaults
from shifu.knowledge.query_adapter import ContrastiveFit
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base, today
from shifu.store.engine import make_engine, make_session_factory
from shifu.store.migrate import upgrade


@contextmanager
def _knowledge_base() -> Iterator[KnowledgeBase]:
    settings = current_settings()
    upgrade(settings.sqlalchemy_url)
    engine = make_engine(settings.sqlalchemy_url)
    try:
        kb = open_knowledge_base(settings, make_session_factory(engine))
    except Exception:
        engine.dispose()
        raise
    try:
        yield kb
    finally:
        kb.close()
        engine.dispose()


def _cmd_ingest(args: argparse.Namespace) -> int:
    defaults = IngestDefaults(
        authority=args.authority,
        kind=args.kind,
        version=args.version,
        effective_from=args.effective_from,
        effective_to=args.effective_to,
        lifecycle=args.lifecycle,
        verification=args.verification,
        environment=args.environment,
    )
    with _knowledge_base() as kb:
        report = kb.ingest_paths(
            [Path(p) for p in args.paths],
            space_id=args.space,
            tenant_id=args.tenant,
            defaults=defaults,
            recursive=args.recursive,
            progress=sys.stderr.isatty(),
        )
    print(
        f"新增版本 {len(report.added)} 个，未变化 {len(report.unchanged)} 个，"
        f"新增片段 {report.fragments_added} 条，退役片段 {report.fragments_retired} 条，"
        f"重新标注 {report.fragments_relabelled} 条"
    )
    for problem in report.problems:
        print(f"未导入 {problem.file}: {problem.reason} ({problem.detail})", file=sys.stderr)
    return 0 if report.ok else 1


def _cmd_check(args: argparse.Namespace) -> int:
    with _knowledge_base() as kb:
        report = kb.check()
    if args.json:
        print(json.dumps(report.model_dump() | {"problems": report.problems}, ensure_ascii=False, indent=2))
    else:
        print(f"受治理片段 {report.store_fragments}，索引点 {report.index_points}，问题 {report.problems}")
        print(
            f"  索引缺失 {len(report.missing_in_index)}，索引多余 {len(report.extra_in_index)}，"
            f"治理字段缺失 {report.missing_payload_fields}，治理字段不一致 {report.payload_mismatches}，"
            f"标注过期 {report.stale_labels}"
        )
        if report.stale_labels:
            print("  标注过期的片段可用 `shifu kb rebuild` 重新标注")
        for space, count in report.per_space.items():
            print(f"  空间 {space}: {count}")
        for authority, count in report.per_authority.items():
            print(f"  权威 {authority}: {count}")
    return 0 if report.problems == 0 else 1


def _cmd_rebuild(args: argparse.Namespace) -> int:
    with _knowledge_base() as kb:
        report = kb.rebuild(progress=sys.stderr.isatty())
    print(
        f"索引重建完成：{report.points} 个索引点，重新向量化 {report.embedded} 条，"
        f"重新标注 {report.relabelled} 条"
    )
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    with _knowledge_base() as kb:
        documents = kb.list_documents(tenant_id=args.tenant)
    if args.json:
        print(json.dumps([d.model_dump(mode="json") for d in documents], ensure_ascii=False, indent=2))
        return 0
    for d in documents:
        window = f"{d.effective_from or '-'}~{d.effective_to or '-'}"
        state = "可检索" if d.indexed else "不可检索"
        print(
            f"{d.space_id}\t{d.document_key}\t{d.title}\t{d.authority}\t{d.version}\t{window}\t"
            f"{d.lifecycle}\t{d.verification}\t{d.environment}\t{d.fragments}\t{state}"
        )
    return 0


def _cmd_search(args: argparse.Namespace) -> int:
    settings = current_settings()
    on_date = args.date or today(settings)
    with _knowledge_base() as kb:
        with kb.parts.session_factory() as session:
            access = access_for_actor(session, args.tenant, args.actor, on_date)
        if access is None:
            print(f"未知或停用的演示角色: {args.actor}", file=sys.stderr)
            return 2
        results = kb.search(args.query, domain=args.domain, access=access, top_k=args.top_k)
    if args.json:
        rows = [
            {
                "fragmentId": e.fragment_id,
                "documentKey": e.document_key,
                "locator": e.locator,
                "title": e.title,
                "score": round(e.score, 6),
            }
            for e in results
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not results:
        print("没有可检索的结果")
    for rank, e in enumerate(results, 1):
        print(f"{rank}\t{e.score:.4f}\t{e.fragment_id[:12]}\t{e.document_key}\t{e.locator}\t{e.title}")
    return 0


def _cmd_fit_adapter(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from shifu.knowledge.adapter_fit import fit_adapter_from_bank
    from shifu.knowledge.query_adapter import save_query_adapter
    from shifu.knowledge.question_bank import read_entries

    bank = args.bank or current_settings().question_bank
    if bank is None:
        print("没有问题库：请用 --bank 指定，或设置 SHIFU_QUESTION_BANK", file=sys.stderr)
        return 2
    entries = read_entries(bank)
    settings = ContrastiveFit(temperature=args.temperature, epochs=args.epochs)
    output = Path(args.output)
    with (
        _knowledge_base() as kb,
        tqdm(total=settings.epochs, desc="fit-adapter", unit="epoch", disable=not sys.stderr.isatty()) as bar,
    ):
        adapter, report = fit_adapter_from_bank(kb, entries, settings, lambda done, _: bar.update(1))
    save_query_adapter(adapter, output)
    print(
        f"查询适配器已写入 {output}：问题 {report.questions} 个，候选片段 {report.passages} 条，"
        f"找不到的引用 {len(report.unresolved)} 个"
    )
    for document_key, locator in report.unresolved:
        print(f"  找不到可检索片段：{document_key} {locator}", file=sys.stderr)
    print(f"启用方式：SHIFU_QUERY_ADAPTER={output.resolve()}")
    return 0


def _positive(kind: type[int] | type[float]) -> Callable[[str], object]:
    def parse(value: str) -> object:
        try:
            number = kind(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"not a number: {value}") from exc
        if number <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {value}")
        return number

    return parse


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value}") from exc


def _enum(
    kind: type[Authority] | type[Lifecycle] | type[Verification] | type[Environment],
) -> Callable[[str], object]:
    def parse(value: str) -> object:
        try:
            return kind(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"one of {', '.join(m.value for m in kind)}") from exc

    return parse


def add_kb_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `kb ingest|check|rebuild|list|search|fit-adapter` on the `shifu` CLI."""
    kb = subparsers.add_parser("kb", help="治理知识库：导入、检查、重建、列表、检索")
    commands = kb.add_subparsers(dest="kb_command", required=True)

    ingest = commands.add_parser("ingest", help="导入 Markdown/文本/DOCX/PDF 文档")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--space", required=True)
    ingest.add_argument("--tenant", default="demo")
    ingest.add_argument("--authority", type=_enum(Authority))
    ingest.add_argument("--kind")
    ingest.add_argument("--version")
    ingest.add_argument("--effective-from", type=_date)
    ingest.add_argument("--effective-to", type=_date)
    ingest.add_argument("--lifecycle", type=_enum(Lifecycle))
    ingest.add_argument("--verification", type=_enum(Verification))
    ingest.add_argument("--environment", type=_enum(Environment))
    ingest.add_argument("--recursive", action="store_true")
    ingest.set_defaults(func=_cmd_ingest)

    check = commands.add_parser("check", help="检查存储与索引一一对应")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=_cmd_check)

    rebuild = commands.add_parser("rebuild", help="从存储重建索引（幂等）")
    rebuild.set_defaults(func=_cmd_rebuild)

    listing = commands.add_parser("list", help="列出文档及其治理状态")
    listing.add_argument("--tenant")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(func=_cmd_list)

    search = commands.add_parser("search", help="以某个演示角色的权限检索")
    search.add_argument("query")
    search.add_argument("--as", dest="actor", required=True, metavar="ACTOR")
    search.add_argument("--tenant", default="demo")
    search.add_argument("--top-k", type=int, default=8)
    search.add_argument("--domain")
    search.add_argument("--date", type=_date, help="查询日期（默认今天）")
    search.add_argument("--json", action="store_true")
    search.set_defaults(func=_cmd_search)

    defaults = ContrastiveFit()
    fit = commands.add_parser("fit-adapter", help="用问题库训练查询适配器（SHIFU_QUERY_ADAPTER 文件）")
    fit.add_argument("output", metavar="OUT.npy")
    fit.add_argument("--bank", type=Path, help="问题库 JSONL（默认 SHIFU_QUESTION_BANK）")
    fit.add_argument("--epochs", type=_positive(int), default=defaults.epochs)
    fit.add_argument("--temperature", type=_positive(float), default=defaults.temperature)
    fit.set_defaults(func=_cmd_fit_adapter)
