"""A general question that asks for a person, place, date or number is answered only by such a span."""

from __future__ import annotations

from shifu.evidence.answering import AnswerAsk, answering_sentences
from shifu.nlp.names import _tagged, forget_tagged
from shifu.nlp.terms import question_terms


def _answering(question: str, body: str) -> list[str]:
    ask = AnswerAsk.of(question, question_terms(question))
    assert ask is not None
    return answering_sentences(ask, question_terms(question), body)


def test_the_sentence_that_states_the_asked_kind_about_the_subject_answers() -> None:
    body = "消防演练每季度组织一次。今年第二季度消防演练定于6月18日举行。演练由安全主管负责。"
    assert _answering("第二季度消防演练什么时候举行", body) == ["今年第二季度消防演练定于6月18日举行。"]


def test_on_topic_text_without_an_answer_span_does_not_answer() -> None:
    body = "消防演练是物业安全管理的重要环节，全体员工应当积极参加。"
    assert _answering("消防演练什么时候举行", body) == []


def test_an_answer_about_another_ordinal_or_year_does_not_answer() -> None:
    assert _answering("第28届颁奖典礼在哪举行", "第27届颁奖典礼在上海大剧院举行。") == []
    assert _answering("2022年全国出生人口是多少", "2021年全国出生人口为1062万人。") == []
    assert _answering("2022年全国出生人口是多少", "2022年全国出生人口为956万人。")


def test_a_sentence_about_a_sibling_identifier_does_not_answer_even_after_the_asked_one() -> None:
    body = "神舟十六号载人飞船已完成总装。事实上，预计在今年10月发射的神舟十七号，其乘组也已选定。"
    assert _answering("神舟十六号发射时间", body) == []
    body = "神舟十六号载人飞船已完成总装。神舟十六号定于5月30日发射。"
    assert _answering("神舟十六号发射时间", body) == ["神舟十六号定于5月30日发射。"]


def test_who_is_answered_by_a_role_as_well_as_a_name() -> None:
    assert _answering("装修押金退还由谁审批", "装修押金退还由项目经理审批，财务部办理退款。")
    assert _answering("装修押金退还由谁审批", "装修押金退还须提交申请。") == []


def test_the_heading_names_the_subject_of_the_sentences_under_it() -> None:
    question = "电梯困人后维保人员要在多少分钟内到场"
    ask = AnswerAsk.of(question, question_terms(question))
    assert ask is not None
    body = "1. 安抚被困人员。\n2. 通知电梯维保单位，要求维保人员在60分钟内到场。"
    heading = "电梯困人应急处置规程\n三、处置步骤\n"
    assert answering_sentences(ask, question_terms(question), body, heading) == [
        "2. 通知电梯维保单位，要求维保人员在60分钟内到场。"
    ]


def test_a_fragment_dated_to_other_years_only_answers_nothing_about_the_year_asked() -> None:
    report = "2001年，高考报名人数首次突破400万人。此后报考人数一路飙升，到2008年达到1050万人。"
    assert _answering("2022年高考报名人数是多少", report) == []
    assert _answering("高考报名人数是多少", report)
    undated = "高考报名人数为1193万人，比上年增加115万人。"
    assert _answering("2022年高考报名人数是多少", undated)


def test_a_rule_in_force_since_an_earlier_year_still_answers_a_later_year() -> None:
    rule = "本制度自2024年1月1日起施行。员工累计工作满1年的，年休假5天。"
    assert _answering("2026年年休假有多少天", rule) == ["员工累计工作满1年的，年休假5天。"]


def test_a_sentence_about_the_same_thing_elsewhere_does_not_answer() -> None:
    question = "北京冬奥会男子500米速度滑冰金牌得主是谁"
    body = "北京冬奥会速度滑冰比赛备受关注。武大靖曾获平昌冬奥会男子500米金牌。"
    assert _answering(question, body) == []
    body = "北京冬奥会速度滑冰比赛备受关注。高亭宇获得北京冬奥会男子500米金牌，打破平昌冬奥会纪录。"
    assert _answering(question, body)
    assert _answering("华府项目的装修押金是多少", "华府项目装修须知如下。翠苑项目装修押金为3000元。") == []
    assert _answering("华府项目的装修押金是多少", "华府项目装修须知如下。华府项目装修押金为2000元。")


def test_reading_a_question_memoizes_nothing_of_it() -> None:
    forget_tagged()
    ask = AnswerAsk.of("华府项目的装修押金是多少", question_terms("华府项目的装修押金是多少"))
    assert ask is not None and ask.qualified == (("华府", "项目"),)
    assert _tagged.cache_info().currsize == 0


def test_a_sentence_silent_on_the_asked_attribute_does_not_answer() -> None:
    body = "《相逢时节》正在热播，梁冠华表现出色。从梁冠华到严晓频，老戏骨都在《相逢时节》中起到衬托作用。"
    assert _answering("梁冠华在《相逢时节》中演的谁", body) == []
    body = "《相逢时节》正在热播。在《相逢时节》中，梁冠华饰演的是王建国。"
    assert _answering("梁冠华在《相逢时节》中演的谁", body) == ["在《相逢时节》中，梁冠华饰演的是王建国。"]
    body = "2022中关村论坛将于9月举办。论坛将全年举办系列活动，做到“月月有活动、季季有亮点”。"
    assert _answering("2022中关村论坛的主题是什么", body) == []
    assert _answering("2022中关村论坛的主题是什么", "2022中关村论坛的主题为“开放合作·共享未来”。")


def test_the_attribute_may_sit_in_the_sentence_before_the_figure() -> None:
    body = "竞业限制的期限由用人单位与劳动者约定。竞业限制期限，不得超过二年。"
    assert _answering("竞业限制最长能约定几年", body) == ["竞业限制期限，不得超过二年。"]


def test_a_measure_is_stated_by_its_act_with_the_figure() -> None:
    body = "1月7日，2023年春运首日全国共发送旅客3473.6万人次。"
    assert _answering("2023春运首日旅客发送量", body)
    assert _answering("2022年重庆的GDP增长率", "2022年重庆市实现地区生产总值29129亿元，比上年增长2.6%。")


def test_the_lead_sentence_names_the_subject_of_an_untitled_passage() -> None:
    body = (
        "2026美加墨世界杯将扩军。赛事将在三国的16座城市举行。"
        "据国际足联消息，下届世界杯将有48支球队参赛，比赛场次增至104场。"
    )
    answer = "据国际足联消息，下届世界杯将有48支球队参赛，比赛场次增至104场。"
    assert _answering("美加墨世界杯会有多少支球队参赛", body) == [answer]
    assert _answering("美加墨世界杯会有多少支球队参赛", body.split("。", 1)[1]) == []


def test_a_lead_in_stating_the_figure_answers_for_the_items_it_introduces() -> None:
    body = (
        "单位违反本法规定，有下列行为之一的，责令改正，处五千元以上五万元以下罚款：\n"
        "（一）损坏、挪用消防设施、器材的；\n（二）占用、堵塞、封闭疏散通道、安全出口的；\n"
        "单位应当落实消防安全责任制。"
    )
    assert _answering("消防通道被占用要罚多少钱", body) == [
        "单位违反本法规定，有下列行为之一的，责令改正，处五千元以上五万元以下罚款："
    ]
    assert _answering("消防水池要罚多少钱", body) == []  # the items never name it
