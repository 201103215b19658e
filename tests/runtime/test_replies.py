"""Small talk is answered in kind and never states a rule, a number or an action."""

from __future__ import annotations

import pytest

from shifu.runtime.replies import ACKNOWLEDGED_REPLY, FAREWELL_REPLY, SOCIAL_REPLY, THANKS_REPLY, social_reply


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("谢谢师傅", THANKS_REPLY),
        ("辛苦了", THANKS_REPLY),
        ("好的，拜拜", FAREWELL_REPLY),
        ("你好", SOCIAL_REPLY),
        ("早上好", SOCIAL_REPLY),
        ("好的", ACKNOWLEDGED_REPLY),
        ("收到！", ACKNOWLEDGED_REPLY),
        ("Thanks", THANKS_REPLY),
        ("bye", FAREWELL_REPLY),
        ("hello", SOCIAL_REPLY),
    ],
)
def test_small_talk_is_answered_in_kind(text: str, reply: str) -> None:
    assert social_reply(text) == reply


def test_no_small_talk_reply_states_a_number() -> None:
    assert not any(ch.isdigit() for ch in THANKS_REPLY + FAREWELL_REPLY + SOCIAL_REPLY + ACKNOWLEDGED_REPLY)
