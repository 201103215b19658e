"""A question asking what a quoted item says (第三步是什么 → “立即通知电梯维保单位…”是什么).

The conversation layer names a pointed-at item by quoting its text. Asked what it is, the answer is
that item itself (with its lead-in), not every sentence that shares its words: 维保人员到场后… and
the section on late arrivals repeat 维保 and 30分钟 but are other steps. Asked how to do it
(“…”怎么做), the item is only the subject, and the usual search answers.

Texts are compared after NFKC, because a follow-up's search query is normalized (，→ ,).
"""

from __future__ import annotations

import re

from shifu.nlp.entities import normalize_text

_ASKED_WHAT = re.compile(r"“(?P<item>[^”]{6,})”\s*(?:是什么|是啥|指的?是什么|什么意思|说的是什么)[?？]?$")


def asked_item(question: str) -> str | None:
    """The quoted item a question asks the content of, normalized; None for any other question."""
    match = _ASKED_WHAT.search(normalize_text(question))
    return match.group("item") if match else None


def quotes_item(item: str, text: str) -> bool:
    """True when `text` holds the (normalized) item verbatim."""
    return item in normalize_text(text)
