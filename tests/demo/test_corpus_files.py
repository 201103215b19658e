"""The demo company corpus is well-formed and carries the governance fixtures the gates are tested against.

Ingestion trusts this front matter, and the evidence-gate tests rely on specific documents being
DRAFT, UNVERIFIED, expired, staging, retired, conflicting or interview-only; a silent edit to one
of those files would make a gate test pass for the wrong reason, so this test pins them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

import shifu.demo

CORPUS = Path(shifu.demo.__file__).parent / "corpus"
SPACES = {"space-all-staff", "space-huafu", "space-supervisors", "space-candidates"}
REQUIRED_KEYS = {
    "title",
    "authority",
    "kind",
    "version",
    "effective_from",
    "effective_to",
    "lifecycle",
    "verification",
    "environment",
    "projects",
    "roles",
}
AUTHORITIES = {"COMPANY_POLICY", "SOP", "MANUAL", "CASE", "INTERVIEW"}
KINDS = {"制度", "SOP", "手册", "话术", "培训", "案例", "访谈"}
LIFECYCLES = {"DRAFT", "PUBLISHED", "RETIRED"}
VERIFICATIONS = {"UNVERIFIED", "HUMAN_VERIFIED"}
ENVIRONMENTS = {"production", "staging"}
PROJECTS = {"proj-huafu", "proj-jiangwan"}
ROLES = {"EMPLOYEE", "SUPERVISOR", "CANDIDATE"}
CJK = re.compile(r"[\u4e00-\u9fff]")
REPAIRED_VALUES: dict[str, object] = {
    "lifecycle": "PUBLISHED",
    "verification": "HUMAN_VERIFIED",
    "environment": "production",
    "effective_to": None,
}
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)


@dataclass(frozen=True)
class CorpusDoc:
    """One parsed corpus file: where it lives, its front matter and its body."""

    space: str
    stem: str
    meta: dict[str, Any]
    body: str

    def sections(self) -> list[tuple[str, str]]:
        """The `## ` sections as (heading, text) pairs, in file order."""
        parts = re.split(r"^## (.+)$", self.body, flags=re.MULTILINE)
        return [(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts), 2)]


def _load(path: Path) -> CorpusDoc:
    match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
    assert match, f"{path.name}: no front matter block"
    meta = yaml.safe_load(match.group(1))
    assert isinstance(meta, dict), f"{path.name}: front matter is not a mapping"
    return CorpusDoc(space=path.parent.name, stem=path.stem, meta=meta, body=match.group(2))


DOC_PATHS = sorted(CORPUS.glob("*/*.md"))
DOCS = {doc.stem: doc for doc in map(_load, DOC_PATHS)}


def _is_searchable(meta: dict[str, Any], today: date) -> bool:
    effective_to = meta["effective_to"]
    return (
        meta["environment"] == "production"
        and meta["lifecycle"] == "PUBLISHED"
        and meta["verification"] == "HUMAN_VERIFIED"
        and meta["effective_from"] <= today
        and (effective_to is None or effective_to >= today)
    )


def test_corpus_has_every_space_and_unique_document_keys() -> None:
    assert {path.parent.name for path in DOC_PATHS} == SPACES
    assert len(DOCS) == len(DOC_PATHS), "document keys (file stems) must be unique across spaces"
    assert len(DOCS) >= 20


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_front_matter_keys_and_values(path: Path) -> None:
    meta = _load(path).meta
    assert set(meta) == REQUIRED_KEYS
    assert isinstance(meta["title"], str) and meta["title"]
    assert meta["authority"] in AUTHORITIES
    assert meta["kind"] in KINDS
    assert isinstance(meta["version"], str) and meta["version"]
    assert isinstance(meta["effective_from"], date)
    assert meta["effective_to"] is None or (
        isinstance(meta["effective_to"], date) and meta["effective_to"] > meta["effective_from"]
    )
    assert meta["lifecycle"] in LIFECYCLES
    assert meta["verification"] in VERIFICATIONS
    assert meta["environment"] in ENVIRONMENTS
    assert isinstance(meta["projects"], list) and set(meta["projects"]) <= PROJECTS
    assert isinstance(meta["roles"], list) and set(meta["roles"]) <= ROLES


@pytest.mark.parametrize("path", DOC_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_body_is_titled_and_split_into_retrievable_sections(path: Path) -> None:
    doc = _load(path)
    first_line = doc.body.strip().splitlines()[0]
    assert first_line == f"# {doc.meta['title']}"
    sections = doc.sections()
    assert 4 <= len(sections) <= 10
    headings = [heading for heading, _ in sections]
    assert len(set(headings)) == len(headings), "locators (headings) must be unique within a document"
    for heading, text in sections:
        assert len(CJK.findall(heading)) >= 4, f"heading {heading!r} must name its subject"
        assert 80 <= len(CJK.findall(text)) <= 400, f"section {heading!r} is not 80-400 Chinese characters"


@pytest.mark.parametrize(
    ("space", "projects", "roles"),
    [
        ("space-huafu", ["proj-huafu"], []),
        ("space-supervisors", [], ["SUPERVISOR"]),
        ("space-candidates", [], []),
    ],
)
def test_space_scope_matches_its_audience(space: str, projects: list[str], roles: list[str]) -> None:
    docs = [doc for doc in DOCS.values() if doc.space == space]
    assert docs
    for doc in docs:
        assert (doc.meta["projects"], doc.meta["roles"]) == (projects, roles), doc.stem


def test_conflicting_leave_versions_are_both_effective() -> None:
    old, new = DOCS["qingjia_zhidu_2024"], DOCS["qingjia_zhidu_2025"]
    today = date.today()
    assert _is_searchable(old.meta, today) and _is_searchable(new.meta, today)
    assert old.meta["title"] == new.meta["title"] and old.meta["version"] != new.meta["version"]
    assert "提前3个工作日" in old.body and "提前3个工作日" not in new.body
    assert "提前5个工作日" in new.body and "提前5个工作日" not in old.body


@pytest.mark.parametrize(
    ("stem", "key", "value"),
    [
        ("yezhu_tousu_guifan_xiuding_caogao", "lifecycle", "DRAFT"),
        ("xiaofang_yuedu_jianchabiao", "verification", "UNVERIFIED"),
        ("kaoqin_zhidu_ceshi", "environment", "staging"),
        ("dianti_kunren_yingji_2021", "lifecycle", "RETIRED"),
        ("zhuangxiu_guanli_guiding_2022", "effective_to", date(2023, 12, 31)),
    ],
)
def test_gate_fixture_fails_governance_for_exactly_one_reason(stem: str, key: str, value: object) -> None:
    meta = DOCS[stem].meta
    assert meta[key] == value
    assert not _is_searchable(meta, date.today())
    repaired = {**meta, key: REPAIRED_VALUES[key]}
    assert _is_searchable(repaired, date.today()), f"{stem} must fail governance only on {key}"


@pytest.mark.parametrize(
    "stem",
    [
        "baoxiao_zhidu_2025",
        "lingxing_caigou_banfa",
        "yezhu_tousu_guifan",
        "xiaofang_xunjian_zhidaoshu",
        "dianti_kunren_yingji",
        "cuifei_huashu_zhiyin",
        "zhuangxiu_guanli_guiding",
        "huafu_zhuangxiu_buchong",
        "huafu_menggang_jiaojieban",
        "zhuguan_fupan_banfa",
        "zhuguan_xunlian_zhipai_guifan",
        "gangqian_xuexi_zhiyin",
        "houxuanren_ziliao_tijiao",
    ],
)
def test_current_documents_are_searchable(stem: str) -> None:
    assert _is_searchable(DOCS[stem].meta, date.today())


def test_reimbursement_states_both_per_transaction_and_monthly_rules() -> None:
    body = DOCS["baoxiao_zhidu_2025"].body
    for phrase in ("单笔1000元以下", "单笔超过5000元", "每月累计报销金额不超过3000元", "30日内"):
        assert phrase in body


def test_small_purchase_rule_is_monthly_only_and_the_500_yuan_claim_is_interview_only() -> None:
    policy = DOCS["lingxing_caigou_banfa"]
    assert "每月零星采购累计金额不超过2000元" in policy.body
    assert "单笔" not in policy.body and "500" not in policy.body
    interview = DOCS["lingxing_caigou_fangtan"]
    assert (interview.meta["authority"], interview.meta["kind"]) == ("INTERVIEW", "访谈")
    assert _is_searchable(interview.meta, date.today())
    assert "500元以下一般自己先垫付就行" in interview.body
    carriers = {doc.stem for doc in DOCS.values() if "500元" in doc.body}
    assert carriers == {"lingxing_caigou_fangtan"}


def test_collection_script_mentions_crm_without_being_a_system() -> None:
    doc = DOCS["cuifei_huashu_zhiyin"]
    assert doc.meta["kind"] == "话术"
    assert "在CRM系统中登记催缴记录" in doc.body


def test_expired_and_current_decoration_rules_differ_in_deposit() -> None:
    assert "装修押金3000元" in DOCS["zhuangxiu_guanli_guiding"].body
    assert "装修押金2000元" in DOCS["zhuangxiu_guanli_guiding_2022"].body
    assert "3000元" not in DOCS["zhuangxiu_guanli_guiding_2022"].body


def test_readme_lists_every_document() -> None:
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for doc in DOCS.values():
        assert f"`{doc.space}/{doc.stem}.md`" in readme, doc.stem
