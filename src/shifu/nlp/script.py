"""Traditional characters in a question read as their simplified forms.

Staff on phones set to traditional Chinese ask 電梯困人了怎麼辦; the company's documents, the
domain dictionary and the planner's utterances are simplified, so the question is read in
simplified characters before anything matches it. Documents are never converted: what is quoted
stays verbatim. The conversion is OpenCC's t2s table, bundled with the package (no network).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
MIN_FOREIGN_WORDS = 3
"""A question of this many Latin words and no Chinese is written in another language; a system name
(CRM) or a greeting (hello there) is not."""


@cache
def _converter() -> Any:
    """OpenCC's traditional → simplified converter (its tables load once, lazily)."""
    import opencc

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """`text` with traditional characters written in simplified form; simplified text is unchanged."""
    return str(_converter().convert(text)) if text else text


def writes_no_chinese(text: str) -> bool:
    """True when `text` is a sentence in another language (How do I apply for leave?), not Chinese.

    The company's documents, the planner's utterances and every reply are Chinese: such a question
    is asked back in Chinese rather than matched word by word against Chinese sources.
    """
    return not _CJK.search(text) and len(_LATIN_WORD.findall(text)) >= MIN_FOREIGN_WORDS
