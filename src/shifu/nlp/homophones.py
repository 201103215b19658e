"""Homophone typos of the company's topic words read as the words meant (报消 → 报销, 电悌 → 电梯).

Staff type with pinyin input methods, so their typos are homophones: the wrong character with
the right sound. A question with 报消 matches no document and ends NO_EVIDENCE, although the
user plainly asks about 报销. Only a stretch the dictionary does not know is corrected (characters
the segmenter could not join into words), and only to the one topic word with exactly the same
toneless pinyin: 报效 is a word, so it is never touched, a stretch holding a function character
(里是) is two words, and a sound shared by two topic words corrects nothing. Titles and quotations
are names as written. Documents are never rewritten.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

from shifu.nlp.lay_words import DOMAIN_WORDS, TOPIC_WORDS
from shifu.nlp.terms import vocabulary, words

_CJK = re.compile(r"[\u4e00-\u9fff]+")
_QUOTED = re.compile(r"《[^》]*》|“[^”]*”|「[^」]*」|\"[^\"]*\"")
"""A title or a quotation is a name as written (《炽道》 is no typo of 迟到)."""
_FUNCTION_CHARACTERS = frozenset(
    "是的了在有我你他她它们里前后上下个要就都和与或也还又再才给被把对向从到由按为于以之其这那哪么吗呢吧啊呀嘛不没很太更最"
)
"""Characters that are words of their own: 里是 and 前交 are two words, never a typo of 离世 or 欠缴."""
_MAX_WORD = 4


def _sound(text: str) -> tuple[str, ...]:
    """Toneless pinyin of `text`, one syllable per character (pypinyin's bundled tables)."""
    from pypinyin import lazy_pinyin

    return tuple(lazy_pinyin(text))


@cache
def _topic_sounds() -> dict[tuple[str, ...], frozenset[str]]:
    """Toneless pinyin → the topic words that sound so (built once, lazily)."""
    targets = TOPIC_WORDS | DOMAIN_WORDS
    index: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for word in targets:
        if 2 <= len(word) <= _MAX_WORD and _CJK.fullmatch(word):
            index[_sound(word)].add(word)
    return {sound: frozenset(found) for sound, found in index.items()}


def _meant(stretch: str) -> str | None:
    """The one topic word `stretch` sounds like, when it is not a word itself."""
    if stretch in vocabulary() or any(character in _FUNCTION_CHARACTERS for character in stretch):
        return None
    found = _topic_sounds().get(_sound(stretch), frozenset())
    return next(iter(found)) if len(found) == 1 else None


def _unknown_stretches(run: str) -> list[tuple[int, int]]:
    """Spans of `run` the dictionary does not know: runs of two or more characters it left single."""
    spans: list[tuple[int, int]] = []
    position = 0
    singles_from: int | None = None
    for piece in [*words(run), ""]:
        if len(piece) == 1:
            singles_from = position if singles_from is None else singles_from
        else:
            if singles_from is not None and position - singles_from >= 2:
                spans.append((singles_from, position))
            singles_from = None
        position += len(piece)
    return spans


def _corrected_stretch(stretch: str) -> str:
    """`stretch` scanned left to right, each longest topic-word homophone replaced by the word."""
    out: list[str] = []
    index = 0
    while index < len(stretch):
        for size in range(min(_MAX_WORD, len(stretch) - index), 1, -1):
            meant = _meant(stretch[index : index + size])
            if meant is not None:
                out.append(meant)
                index += size
                break
        else:
            out.append(stretch[index])
            index += 1
    return "".join(out)


def _corrected_run(run: str) -> str:
    """A run of Chinese characters with the homophone typos in its unknown stretches corrected."""
    out = run
    for start, end in reversed(_unknown_stretches(run)):
        out = out[:start] + _corrected_stretch(run[start:end]) + out[end:]
    return out


def correct_homophones(text: str) -> str:
    """`text` with homophone typos of topic words corrected; titles, quotations and the rest unchanged."""
    pieces: list[str] = []
    position = 0
    for quoted in _QUOTED.finditer(text):
        pieces.append(_CJK.sub(lambda match: _corrected_run(match.group(0)), text[position : quoted.start()]))
        pieces.append(quoted.group(0))
        position = quoted.end()
    pieces.append(_CJK.sub(lambda match: _corrected_run(match.group(0)), text[position:]))
    return "".join(pieces)


def warm_up() -> None:
    """Load the pinyin tables and the topic-word index now instead of on the first question."""
    correct_homophones("报消")
