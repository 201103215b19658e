"""Chinese tokenization with a domain dictionary, and BM25 term weights as sparse vectors.

Lexical retrieval runs inside the vector engine as a sparse vector with an IDF modifier, so
the same authorization filter applies to the lexical and the dense leg before any top-k.
Document-side weights carry BM25's term-frequency saturation and length normalisation;
the engine supplies the IDF.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

USER_DICT = Path(__file__).with_name("userdict.txt")
_WORD = re.compile(r"[\w\u4e00-\u9fff]")
STOPWORDS = frozenset(
    [
        "的",
        "了",
        "和",
        "与",
        "或",
        "及",
        "是",
        "在",
        "我",
        "你",
        "他",
        "她",
        "它",
        "们",
        "这",
        "那",
        "有",
        "也",
        "就",
        "都",
        "而",
        "对",
        "把",
        "被",
        "让",
        "给",
        "从",
        "到",
        "向",
        "为",
        "以",
        "于",
        "之",
        "其",
        "吗",
        "呢",
        "吧",
        "啊",
        "呀",
        "么",
        "什么",
        "怎么",
        "怎样",
        "如何",
        "哪些",
        "哪个",
        "可以",
        "能",
        "能否",
        "是否",
        "需要",
        "要",
        "会",
        "请问",
        "一下",
        "一个",
        "这个",
        "那个",
        "如果",
        "但是",
        "因为",
        "所以",
        "还是",
        "还有",
        "已经",
        "没有",
        "不是",
        "应该",
        "自己",
        "我们",
        "你们",
        "他们",
        "公司",
        "情况",
        "问题",
        "规定",
    ]
)
"""Function words and question fillers that carry no retrieval signal."""

_lock = threading.Lock()
_tokenizer: Any = None


def _jieba() -> Any:
    global _tokenizer
    with _lock:
        if _tokenizer is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            with USER_DICT.open("rb") as handle:
                tokenizer.load_userdict(handle)
            _tokenizer = tokenizer
    return _tokenizer


def tokenize(text: str) -> list[str]:
    """Search-mode jieba tokens of `text`, lower-cased, without stop words and punctuation."""
    tokens = _jieba().cut_for_search(text)
    return [t for token in tokens if (t := token.strip().lower()) and _WORD.search(t) and t not in STOPWORDS]


def term_id(token: str) -> int:
    """A stable 31-bit id for a token (sparse-vector dimension); collisions are negligible."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest(), "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class SparseTerms:
    """A sparse vector as parallel index/value lists (engine-neutral)."""

    indices: list[int]
    values: list[float]


@dataclass(frozen=True)
class Bm25Encoder:
    """BM25 weights: documents get saturated tf, queries get one per distinct term."""

    k1: float = 1.2
    b: float = 0.75
    avg_len: float = 60.0

    def document(self, tokens: list[str]) -> SparseTerms:
        """Document-side weights tf·(k1+1)/(tf + k1·(1-b+b·len/avg_len))."""
        counts = Counter(term_id(t) for t in tokens)
        norm = self.k1 * (1 - self.b + self.b * len(tokens) / self.avg_len)
        items = sorted(counts.items())
        return SparseTerms([i for i, _ in items], [tf * (self.k1 + 1) / (tf + norm) for _, tf in items])

    def query(
        self, tokens: list[str], secondary: list[str] | None = None, weight: float = 1.0
    ) -> SparseTerms:
        """Query-side weights: each distinct term counts once (the engine applies IDF); a `secondary`
        term (a word the query's words stand for) counts `weight`, unless the query has it too."""
        weights = dict.fromkeys((term_id(t) for t in secondary or ()), weight)
        weights.update(dict.fromkeys((term_id(t) for t in tokens), 1.0))
        ids = sorted(weights)
        return SparseTerms(ids, [weights[i] for i in ids])
