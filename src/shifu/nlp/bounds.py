"""Questions that ask for a limit, and sentences that state one.

"最多能派几项" asks for an upper limit: "同时进行中的训练任务不超过3项" answers it, "每月至少指派1项"
does not, though both state a count of 项. The composer quotes the sentences stating the kind of
limit asked for first; a question asking no limit is unaffected.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Bound(StrEnum):
    """Which end of a range a question asks for."""

    UPPER = "UPPER"
    LOWER = "LOWER"


_ASKS = {
    Bound.UPPER: re.compile(r"最多|至多|最长|最大|最高(?!人民)|上限|封顶"),
    Bound.LOWER: re.compile(r"最少|至少|最短|最低|下限"),
}
_STATES = {
    Bound.UPPER: re.compile(
        r"不超过|不得超过|不能超过|最多|至多|最长|最大|最高(?!人民)|以内|之内|上限|封顶|不高于|为限"
    ),
    Bound.LOWER: re.compile(r"不少于|不低于|不短于|至少|最少|最低|下限"),
}


def asked_bound(question: str) -> Bound | None:
    """The limit the question asks for, or None when it asks for both or neither."""
    asked = [bound for bound, pattern in _ASKS.items() if pattern.search(question)]
    return asked[0] if len(asked) == 1 else None


def states_bound(sentence: str, bound: Bound) -> bool:
    """True when the sentence states a limit of that kind (不超过3项 is an upper limit)."""
    return bool(_STATES[bound].search(sentence))
