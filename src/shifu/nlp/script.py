"""Traditional characters in a question read as their simplified forms.

Staff on phones set to traditional Chinese ask 電梯困人了怎麼辦; the company's documents, the
domain dictionary and the planner's utterances are simplified, so the question is read in
simplified characters before anything matches it. Documents are never converted: what is quoted
stays verbatim. The conversion is OpenCC's t2s table, bundled with the package (no network).
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _converter() -> Any:
    """OpenCC's traditional → simplified converter (its tables load once, lazily)."""
    import opencc

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """`text` with traditional characters written in simplified form; simplified text is unchanged."""
    return str(_converter().convert(text)) if text else text
