"""`shifu kb …` end to end through argparse, against the test's data directory."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest
from kb_support import policy, seed_org, write_doc
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.errors import InvalidInput
from shifu.knowledge import commands
from shifu.knowledge.adapter_fit import NO_PAIRS, STALE_VECTORS
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.query_adapter import load_query_adapter
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base
from shifu.store.engine import transaction
from shifu.store.tables.knowledge import KbFragmentRow


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="shifu")
    commands.add_kb_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


@pytest.fixture(autouse=True)
def fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI builds its own knowledge base; give it the fast fake embedder."""

    def opened(settings: Settings, session_factory: sessionmaker[Session]) -> KnowledgeBase:
        return open_knowledge_base(settings, session_factory, embedder=HashingEmbedder())

    monkeypatch.setattr(commands, "open_knowledge_base", opened)


def test_ingest_check_list_search_rebuild(
    session_factory: sessionmaker[Session], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed_org(session_factory)
    folder = tmp_path / "docs"
    write_doc(folder, "baoxiao", "## 一、标准\n\n单笔报销不超过500元。\n", **policy("报销制度"))
    write_doc(folder, "caogao", "## 一、标准\n\n单笔报销不超过900元。\n", **policy("草稿", lifecycle="DRAFT"))
    (folder / "notes.bin").write_bytes(b"\x00")
    assert _run(["kb", "ingest", str(folder), "--space", "space-all-staff"]) == 0
    assert _run(["kb", "ingest", str(folder / "notes.bin"), "--space", "space-all-staff"]) == 1
    err = capsys.readouterr().err
    assert "notes.bin" in err and "UNKNOWN_FORMAT" in err
    assert _run(["kb", "check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 0 and report["per_space"] == {"space-all-staff": 1}
    assert _run(["kb", "list", "--json"]) == 0
    listed = {d["document_key"]: d["indexed"] for d in json.loads(capsys.readouterr().out)}
    assert listed == {"baoxiao": True, "caogao": False}
    assert (
        _run(
            ["kb", "search", "--as", "employee", "--json", "--top-k", "3", "--date", "2025-06-01", "报销标准"]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert [(r["documentKey"], r["locator"]) for r in rows] == [("baoxiao", "一、标准")]
    assert set(rows[0]) == {"fragmentId", "documentKey", "locator", "title", "score"}
    assert _run(["kb", "search", "--as", "candidate", "--json", "报销标准"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert _run(["kb", "search", "--as", "ghost", "报销"]) == 2
    assert _run(["kb", "rebuild"]) == 0
    assert "1 个索引点" in capsys.readouterr().out


def test_ingest_flags_validate(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _run(["kb", "ingest", "x.md", "--space", "s", "--lifecycle", "LIVE"])
    assert "PUBLISHED" in capsys.readouterr().err


def test_cli_uses_the_same_store(
    session_factory: sessionmaker[Session], tmp_path: Path, settings: Settings
) -> None:
    seed_org(session_factory)
    path = write_doc(tmp_path, "xiaofang", "## 一、巡检\n\n每日巡检消防通道。\n", **policy("消防"))
    assert _run(["kb", "ingest", str(path), "--space", "space-all-staff"]) == 0
    kb: KnowledgeBase = open_knowledge_base(settings, session_factory, embedder=HashingEmbedder())
    try:
        assert [d.document_key for d in kb.list_documents()] == ["xiaofang"]
    finally:
        kb.close()


def test_fit_adapter_learns_from_the_bank_and_writes_a_loadable_file(
    session_factory: sessionmaker[Session], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed_org(session_factory)
    folder = tmp_path / "docs"
    write_doc(
        folder,
        "baoxiao",
        "## 一、标准\n\n单笔报销不超过500元。\n\n## 二、时限\n\n三十日内提交。\n",
        **policy("报销"),
    )
    write_doc(folder, "xiaofang", "## 一、巡检\n\n每日巡检消防通道。\n", **policy("消防"))
    assert _run(["kb", "ingest", str(folder), "--space", "space-all-staff"]) == 0
    bank = tmp_path / "bank.jsonl"
    lines = [
        {"question": "报销最多多少钱", "document_key": "baoxiao", "locator": "一、标准"},
        {"question": "报销要多久内交", "document_key": "baoxiao", "locator": "二、时限"},
        {"question": "消防多久巡一次", "document_key": "xiaofang", "locator": "一、巡检"},
        {"question": "请假找谁批", "document_key": "qingjia", "locator": "一、审批"},
    ]
    bank.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines), encoding="utf-8")
    output = tmp_path / "adapter"
    capsys.readouterr()
    assert _run(["kb", "fit-adapter", str(output), "--bank", str(bank), "--epochs", "2"]) == 0
    captured = capsys.readouterr()
    assert (
        "问题 3 个" in captured.out
        and "候选片段 3 条" in captured.out
        and "找不到的引用 1 个" in captured.out
    )
    assert "qingjia 一、审批" in captured.err
    dim = HashingEmbedder().dim
    adapter = load_query_adapter(output, dim)
    assert adapter.matrix.shape == (dim, dim) and not np.array_equal(adapter.matrix, np.eye(dim))
    assert not list(tmp_path.glob(".adapter*"))


def test_fit_adapter_refuses_a_bank_that_names_nothing_searchable(
    session_factory: sessionmaker[Session], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed_org(session_factory)
    path = write_doc(tmp_path, "xiaofang", "## 一、巡检\n\n每日巡检消防通道。\n", **policy("消防"))
    assert _run(["kb", "ingest", str(path), "--space", "space-all-staff"]) == 0
    bank = tmp_path / "bank.jsonl"
    bank.write_text('{"question": "请假找谁批", "document_key": "qingjia", "locator": "一、审批"}\n', "utf-8")
    output = tmp_path / "adapter.npy"
    with pytest.raises(InvalidInput) as error:
        _run(["kb", "fit-adapter", str(output), "--bank", str(bank)])
    assert error.value.code == NO_PAIRS and not output.exists()
    assert _run(["kb", "fit-adapter", str(output)]) == 2
    assert "SHIFU_QUESTION_BANK" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _run(["kb", "fit-adapter", str(output), "--bank", str(bank), "--epochs", "0"])


def test_fit_adapter_asks_for_a_rebuild_when_stored_vectors_are_another_models(
    session_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    seed_org(session_factory)
    path = write_doc(tmp_path, "xiaofang", "## 一、巡检\n\n每日巡检消防通道。\n", **policy("消防"))
    assert _run(["kb", "ingest", str(path), "--space", "space-all-staff"]) == 0
    with transaction(session_factory) as session:
        session.execute(update(KbFragmentRow).values(embedding_model="another-model"))
    bank = tmp_path / "bank.jsonl"
    bank.write_text(
        '{"question": "消防多久巡一次", "document_key": "xiaofang", "locator": "一、巡检"}\n', "utf-8"
    )
    output = tmp_path / "adapter.npy"
    with pytest.raises(InvalidInput) as error:
        _run(["kb", "fit-adapter", str(output), "--bank", str(bank)])
    assert error.value.code == STALE_VECTORS and "rebuild" in error.value.message and not output.exists()


def test_fit_adapter_on_an_empty_index_names_the_unresolved_citations(
    settings: Settings, tmp_path: Path
) -> None:
    bank = tmp_path / "bank.jsonl"
    bank.write_text(
        '{"question": "消防多久巡一次", "document_key": "xiaofang", "locator": "一、巡检"}\n', "utf-8"
    )
    with pytest.raises(InvalidInput) as error:
        _run(["kb", "fit-adapter", str(tmp_path / "adapter.npy"), "--bank", str(bank)])
    assert error.value.code == NO_PAIRS
