"""Read one file into front matter and plain body text, whatever its format.

Markdown and plain text may carry YAML front matter; DOCX is read with python-docx (headings
become `## ` lines so the same section splitter applies); PDF is read with pypdf. Anything
unreadable raises `DocumentError` with a reason code, so the caller reports the file by
name and indexes nothing of it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

SUPPORTED_SUFFIXES: dict[str, tuple[str, str]] = {
    ".md": ("markdown", "text/markdown; charset=utf-8"),
    ".markdown": ("markdown", "text/markdown; charset=utf-8"),
    ".txt": ("text", "text/plain; charset=utf-8"),
    ".docx": ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ".pdf": ("pdf", "application/pdf"),
}
"""File suffix → (format, media type) of every format ingestion understands."""


class DocumentError(Exception):
    """A file that cannot be ingested; `reason` is a stable code, `detail` a short English hint."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class RawDocument:
    """A file's bytes, its front matter and its body as text."""

    data: bytes
    suffix: str
    source_format: str
    media_type: str
    front_matter: dict[str, Any]
    body: str


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Separate a leading `---` YAML block from the body; refuse YAML that is not a mapping."""
    if not text.startswith("---"):
        return {}, text
    lines = text.splitlines(keepends=True)
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            header = "".join(lines[1:index])
            try:
                loaded = yaml.safe_load(header) if header.strip() else {}
            except yaml.YAMLError as exc:
                raise DocumentError("BAD_METADATA", "front matter is not valid YAML") from exc
            if not isinstance(loaded, dict):
                raise DocumentError("BAD_METADATA", "front matter is not a mapping")
            return loaded, "".join(lines[index + 1 :])
    raise DocumentError("BAD_METADATA", "front matter is not closed by ---")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError("UNREADABLE", "text is not UTF-8") from exc


def _heading_level(style: str) -> int:
    """Markdown level of a Word paragraph style: Title → 1, Heading N → N+1, body → 0."""
    if style == "title":
        return 1
    if style.startswith("heading"):
        suffix = style.removeprefix("heading").strip()
        return min(6, int(suffix) + 1) if suffix.isdigit() else 2
    return 0


def _docx_text(data: bytes) -> str:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several unrelated types for a broken file
        raise DocumentError("UNREADABLE", "not a readable DOCX file") from exc
    lines: list[str] = []
    for paragraph in document.paragraphs:
        text = paragraph.text.strip()
        if not text:
            continue
        style = ((paragraph.style.name if paragraph.style is not None else "") or "").lower()
        level = _heading_level(style)
        if level:
            lines.append(f"{'#' * level} {text}")
        else:
            lines.append(text)
        lines.append("")
    return "\n".join(lines)


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise DocumentError("UNREADABLE", "not a readable PDF file") from exc
    return "\n\n".join(pages)


def read_document(path: Path) -> RawDocument:
    """Read and parse `path`; raise DocumentError for unknown formats or unreadable content."""
    if not path.is_file():
        raise DocumentError("NOT_FOUND", "no such file")
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise DocumentError("UNKNOWN_FORMAT", f"unsupported file type {suffix or '(none)'}")
    source_format, media_type = SUPPORTED_SUFFIXES[suffix]
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError("UNREADABLE", "file cannot be read") from exc
    if source_format in {"markdown", "text"}:
        front, body = split_front_matter(_decode(data))
    elif source_format == "docx":
        front, body = split_front_matter(_docx_text(data))
    else:
        front, body = split_front_matter(_pdf_text(data))
    if not body.strip():
        raise DocumentError("EMPTY_DOCUMENT", "no text found")
    return RawDocument(data, suffix, source_format, media_type, front, body)
