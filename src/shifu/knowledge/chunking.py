"""Split a document body into citable fragments that follow its own structure.

Statutes: one fragment per article (第X条), with the 编/章/节 headings above it as the heading
path and `第X条` as the locator. Company documents: one fragment per `## ` section (its `###`
sub-sections and numbered items stay with it), locator = the heading text. Text without any
structure falls back to numbered items (一、/1.) and finally to paragraph groups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ARTICLE = re.compile(
    r"^\s*(第[零〇一二三四五六七八九十百千0-9]+条(?:之[一二三四五六七八九十]+)?)[\s　]*(.*)$"
)
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_NUMBERED = re.compile(r"^\s*(?:[一二三四五六七八九十]+、|\d{1,2}[.、．](?!\d))\s*\S")
_MAX_GROUP_CHARS = 600


@dataclass(frozen=True)
class FragmentDraft:
    """A fragment before it has an id: where it sits and what it says."""

    locator: str
    heading_path: tuple[str, ...]
    text: str


def _clean(lines: list[str]) -> str:
    text = "\n".join(line.rstrip() for line in lines).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


def split_articles(body: str) -> list[FragmentDraft]:
    """One fragment per 第X条, keeping headings of level 2 and deeper as the path."""
    fragments: list[FragmentDraft] = []
    path: dict[int, str] = {}
    current: tuple[str, tuple[str, ...]] | None = None
    lines: list[str] = []

    def flush() -> None:
        if current is not None and _clean(lines):
            fragments.append(FragmentDraft(current[0], current[1], _clean(lines)))

    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading:
            flush()
            current, lines = None, []
            level = len(heading.group(1))
            if level >= 2:
                path = {lvl: text for lvl, text in path.items() if lvl < level}
                path[level] = re.sub(r"\s+", " ", heading.group(2)).strip()
            continue
        article = ARTICLE.match(line)
        if article:
            flush()
            current = (article.group(1), tuple(path[level] for level in sorted(path)))
            lines = [line.strip()]
            continue
        if current is not None:
            lines.append(line)
    flush()
    return fragments


def _split_sections(body: str) -> list[FragmentDraft]:
    fragments: list[FragmentDraft] = []
    title: tuple[str, ...] = ()
    locator: str | None = None
    lines: list[str] = []
    preamble: list[str] = []
    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) == 1:
            title = (heading.group(2).strip(),)
            continue
        if heading and len(heading.group(1)) == 2:
            if locator is not None and _clean(lines):
                fragments.append(FragmentDraft(locator, title, _clean(lines)))
            locator, lines = heading.group(2).strip(), []
            continue
        (lines if locator is not None else preamble).append(line)
    if locator is not None and _clean(lines):
        fragments.append(FragmentDraft(locator, title, _clean(lines)))
    if fragments and _clean(preamble):
        fragments.insert(0, FragmentDraft("引言", title, _clean(preamble)))
    return fragments


def _split_groups(body: str) -> list[FragmentDraft]:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    numbered = [p for p in paragraphs if _NUMBERED.match(p)]
    if len(numbered) >= 2:
        fragments: list[FragmentDraft] = []
        lead: list[str] = []
        for paragraph in paragraphs:
            if _NUMBERED.match(paragraph):
                locator = paragraph.splitlines()[0].strip()[:60]
                fragments.append(FragmentDraft(locator, (), paragraph))
            elif fragments:
                last = fragments[-1]
                fragments[-1] = FragmentDraft(last.locator, (), f"{last.text}\n\n{paragraph}")
            else:
                lead.append(paragraph)
        if lead:
            fragments.insert(0, FragmentDraft("引言", (), "\n\n".join(lead)))
        return fragments
    groups: list[list[str]] = [[]]
    for paragraph in paragraphs:
        if groups[-1] and sum(len(p) for p in groups[-1]) + len(paragraph) > _MAX_GROUP_CHARS:
            groups.append([])
        groups[-1].append(paragraph)
    return [
        FragmentDraft(f"第{index}部分", (), "\n\n".join(group))
        for index, group in enumerate(groups, 1)
        if group
    ]


def split_document(body: str, *, statute: bool) -> list[FragmentDraft]:
    """Fragments of `body`: per article for statutes (or article-structured text), else per section."""
    articles = split_articles(body)
    if statute or len(articles) >= 3:
        return articles
    sections = _split_sections(body)
    return sections or _split_groups(body)
