"""Which limit a question asks for, and whether a sentence states one."""

from __future__ import annotations

import pytest

from shifu.nlp.bounds import Bound, asked_bound, states_bound


@pytest.mark.parametrize(
    ("question", "bound"),
    [
        ("最多能派几项", Bound.UPPER),
        ("报销上限是多少", Bound.UPPER),
        ("至少要学几学时", Bound.LOWER),
        ("最低工资标准是多少", Bound.LOWER),
        ("最高人民法院的解释怎么说", None),
        ("最多和最少各是多少", None),
        ("年假有几天", None),
    ],
)
def test_the_asked_bound(question: str, bound: Bound | None) -> None:
    assert asked_bound(question) is bound


def test_sentences_state_upper_and_lower_limits() -> None:
    assert states_bound("同时进行中的训练任务不超过3项", Bound.UPPER)
    assert not states_bound("同时进行中的训练任务不超过3项", Bound.LOWER)
    assert states_bound("每月至少指派1项训练", Bound.LOWER)
    assert not states_bound("每月指派1项训练", Bound.UPPER)


@pytest.mark.parametrize(
    "sentence", ["装修期最长为90日", "单日最高不超过200元", "失业保险金最长为二十四个月"]
)
def test_a_stated_maximum_is_an_upper_limit(sentence: str) -> None:
    assert states_bound(sentence, Bound.UPPER)
    assert not states_bound("最高人民法院另有规定", Bound.UPPER)
