"""Proper names in Chinese text (people, places, organisations, titles), deterministically.

The evidence gate must know whether a sentence names a person or a place at all before it
lets that sentence answer 谁 / 在哪 questions. jieba's part-of-speech tagger marks person
(nr), place (ns), organisation (nt) and other proper nouns (nz); book titles 《…》, quoted
names “…” and Latin-script words are proper names too. Nothing here is a model: the same
text always yields the same names.
"""

from __future__ import annotations

import logging
import re
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any


class NameKind(StrEnum):
    """What a proper name names."""

    PERSON = "PERSON"
    PLACE = "PLACE"
    ORGANISATION = "ORGANISATION"
    OTHER = "OTHER"


_TAGS: dict[str, NameKind] = {
    "nr": NameKind.PERSON,
    "nrfg": NameKind.PERSON,
    "nrt": NameKind.PERSON,
    "ns": NameKind.PLACE,
    "nt": NameKind.ORGANISATION,
    "nz": NameKind.OTHER,
}
_QUOTED = re.compile(r"《[^》\n]{1,40}》|“[^”\n]{1,30}”|「[^」\n]{1,30}」")
_DEICTIC = re.compile(r"[上本下该此这那今去明每当前后][一个]?(?:赛季|年度|季度|届|年|周|期|次|轮|场|季)")
"""上赛季, 本届, 此次: a time the text points at, which the tagger's unknown-word model may call a person.
(Not 月: 明月 is also a given name.)"""
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9\-.&]{1,}(?:\s+[A-Z][A-Za-z0-9\-.&]+)*")


@cache
def _tagger() -> Any:
    """A private part-of-speech tagger (its dictionary loads once, lazily)."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return jieba.posseg.POSTokenizer(tokenizer)


def _tags(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part-of-speech) pairs of `text`."""
    return tuple((str(pair.word), str(pair.flag)) for pair in _tagger().lcut(text, HMM=True))


@lru_cache(maxsize=4096)
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    """`_tags`, memoized for document sentences, which the gate reads more than once per request.

    A user's own words are never memoized (`qualified_names(..., remember=False)`): nothing of a
    question outlives its request.
    """
    return _tags(text)


def forget_tagged() -> None:
    """Empty the tagging memo, so a benchmark can time each message as if its sentences were new."""
    _tagged.cache_clear()


_PERSON_ACT = re.compile(r"主演|饰演|出演|执导|领衔|获得|夺得|摘得|包揽|夺冠|当选|出任|担任|就任|率领|带领")
"""Verbs whose subject is a person: the tagger calls 吴京 a place, but 吴京主演 names an actor."""
_PERSON_TITLE = re.compile(
    r"演员|导演|歌手|选手|运动员|主持人|作家|嫌犯|疑犯|凶手|枪手|总统|主席|教练|队员|球员"
)
"""演员吴京: a name right after a person's title is a person, whatever the tagger called it."""
_LOCATIVE_PREPOSITIONS = frozenset(["在", "于", "到", "从", "赴", "往", "至"])
"""在北京执导: a name after a locative preposition is where the act happens, not who acts."""
_NAME_CHAR = r"[^\W\d_A-Za-z的与和在以是将被于等及了为由从]"
_FOREIGN_NAME = re.compile(rf"{_NAME_CHAR}{{1,4}}(?:[·•・]{_NAME_CHAR}{{1,5}}){{1,2}}")
"""安娜·谢尔巴科娃: a transliterated name, given and family names joined by a middle dot."""


def proper_names(text: str) -> list[tuple[NameKind, str]]:
    """Every proper name in `text` with its kind, in order of appearance (duplicates kept).

    A name the tagger files as a place or other proper noun is a person when a person's act
    follows it (吴京主演); a transliterated name with a middle dot is a person.
    """
    found: list[tuple[NameKind, str]] = []
    tokens = _tagged(text)
    for index, (word, flag) in enumerate(tokens):
        kind = _TAGS.get(flag)
        if kind is None or len(word) < 2 or _DEICTIC.fullmatch(word):
            continue
        acts = index + 1 < len(tokens) and _PERSON_ACT.fullmatch(tokens[index + 1][0]) is not None
        acts = acts or (index > 0 and _PERSON_TITLE.fullmatch(tokens[index - 1][0]) is not None)
        located = index > 0 and tokens[index - 1][0] in _LOCATIVE_PREPOSITIONS
        if kind is not NameKind.PERSON and acts and not located:
            kind = NameKind.PERSON
        found.append((kind, word))
    found += [(NameKind.PERSON, match.group(0)) for match in _FOREIGN_NAME.finditer(text)]
    found += [(NameKind.OTHER, match.group(0)) for match in _QUOTED.finditer(text)]
    found += [(NameKind.OTHER, match.group(0)) for match in _LATIN.finditer(text)]
    return found


def warm_up() -> None:
    """Load the tagger's dictionaries now instead of on the first question that needs them."""
    proper_names("张三在北京工作")


_HEAD_TAGS = frozenset({"n", "nz", "j", "vn"})
"""Nouns, abbreviations and nominal verbs: what a name can qualify (冬奥会, 世界杯, 项目)."""
_QUALIFIER_TAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt"})
"""Names of people, places and organisations qualify (平昌冬奥会, 华府项目); other proper nouns are heads."""
_YEAR_BETWEEN = re.compile(r"\s*(?:(?:19|20)\d{2}\s*年?)?\s*")


def qualified_names(text: str, *, remember: bool = True) -> list[tuple[str, str]]:
    """(name, head) pairs where a proper name qualifies the noun right after it, in order.

    北京冬奥会 → (北京, 冬奥会), 华府项目 → (华府, 项目); a year may sit between them
    (北京2022冬奥会). The evidence gate uses them to tell 平昌冬奥会 from 北京冬奥会. Pass
    `remember=False` for a user's text, which is not memoized.
    """
    pairs: list[tuple[str, str]] = []
    tokens = _tagged(text) if remember else _tags(text)
    for index, (word, flag) in enumerate(tokens):
        if flag not in _QUALIFIER_TAGS or len(word) < 2 or _DEICTIC.fullmatch(word):
            continue
        following = index + 1
        while (
            following < len(tokens)
            and tokens[following][1] == "m"
            and _YEAR_BETWEEN.fullmatch("".join(token for token, _ in tokens[index + 1 : following + 1]))
        ):
            following += 1
        if following < len(tokens):
            head, head_flag = tokens[following]
            if len(head) >= 2 and head_flag in _HEAD_TAGS:
                pairs.append((word, head))
    return pairs


def names_other_qualified(text: str, asked: tuple[tuple[str, str], ...]) -> bool:
    """True when `text` qualifies an asked head by another name only: 平昌冬奥会 where 北京冬奥会 was asked.

    A text that names the asked qualifier anywhere (北京冬奥会与平昌冬奥会相比, 青少年网球巡回赛广州站)
    may still be about it, so only a text silent on it is about the sibling.
    """
    stated = qualified_names(text) if asked else []
    return any(
        name not in text and any(other_head == head for _, other_head in stated) for name, head in asked
    )
