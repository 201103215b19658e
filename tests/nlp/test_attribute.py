"""The word a question asks its span of: next to the asking words, salient, never a kind noun."""

from __future__ import annotations

import pytest

from shifu.nlp.attribute import asked_attributes, wordings
from shifu.nlp.terms import question_terms


def _attributes(question: str) -> tuple[str, ...]:
    return asked_attributes(question, question_terms(question))


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("《重生之门》的导演是谁", ("导演",)),
        ("查尔斯加冕时间", ("加冕",)),
        ("2021年北京大兴机场年旅客吞吐量", ("吞吐量",)),
        ("高启强是谁演的", ("演",)),
        ("梁冠华在《相逢时节》中演的谁", ("演",)),
        ("谁枪击了安倍晋三", ("枪击",)),
        ("谁是北京冬奥会第一棒火炬手", ("火炬手",)),
        ("印控克什米尔地区寺庙踩踏事故死亡人数", ("死亡",)),
        ("装修押金一户要交多少", ("装修押金",)),
        ("消防巡查每天几次", ("消防巡查",)),
        ("电梯的维护保养应当由谁来进行", ("保养",)),
        ("报销款打到哪里", ("报销",)),  # 到哪 asks; it names nothing
        ("明年团建去哪", ("团建",)),
    ],
)
def test_the_attribute_is_the_salient_word_next_to_the_asking_words(
    question: str, attributes: tuple[str, ...]
) -> None:
    assert _attributes(question) == attributes


def test_aspect_verbs_and_kind_nouns_are_not_attributes() -> None:
    assert _attributes("2022春运开始时间") == ("春运",)
    assert _attributes("卡塔尔世界杯决赛队伍") == ("决赛",)
    assert _attributes("KF-21战斗机研发国家") == ("研发",)


def test_questions_asking_no_kind_or_a_result_have_no_attribute() -> None:
    assert _attributes("报销流程怎么走") == ()
    assert _attributes("韩国在卡塔尔世界杯的成绩") == ()


def test_a_listing_question_accepts_the_people_or_their_act() -> None:
    assert _attributes("哪些中国斯诺克选手被终身禁赛")[0] == "选手"


def test_an_attribute_may_be_stated_in_other_words() -> None:
    assert {"增速", "上升"} <= wordings("增长")
    assert {"上报", "报告"} <= wordings("找"), "投诉升级要找谁 is answered by 上报项目经理"
    assert "查看" in wordings("来看"), "催缴记录谁来看 is answered by 主管每周查看一次催缴记录"
    assert wordings("导演") == frozenset({"导演"})
