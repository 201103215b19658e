"""What a question asks for and which sentence spans could answer it."""

from __future__ import annotations

import pytest

from shifu.nlp.answer_kind import AnswerKind, answer_kind, answer_spans, states_an_answer
from shifu.nlp.counting import lists_what_is_counted
from shifu.nlp.instances import (
    names_identifiers,
    names_other_identifier,
    names_other_year,
    question_identifiers,
    question_years,
)
from shifu.nlp.names import NameKind, proper_names


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("开幕式总导演是谁", AnswerKind.PERSON),
        ("这部电影的导演", AnswerKind.PERSON),
        ("装修押金退还找谁审批", AnswerKind.PERSON),
        ("年会在哪举办", AnswerKind.PLACE),
        ("首趟班列的起点？", AnswerKind.PLACE),
        ("健康证去哪办", AnswerKind.PLACE),
        ("消防演练什么时候开始", AnswerKind.DATE),
        ("大会开幕时间", AnswerKind.DATE),
        ("报销多久能到账", AnswerKind.NUMBER),
        ("去年的旅客吞吐量", AnswerKind.NUMBER),
        ("小区有多少个车位", AnswerKind.NUMBER),
        ("这次比赛的冠军", AnswerKind.NAME),
        ("新吉祥物叫什么", AnswerKind.NAME),
        ("今年安全月的口号是什么", AnswerKind.NAME),
        ("装修有什么规定", None),
        ("业主投诉怎么处理", None),
        ("这部剧的主演有哪些", AnswerKind.PERSON),
        ("报销审批人有哪些", AnswerKind.PERSON),
        ("哪些选手晋级了决赛", AnswerKind.PERSON),
        ("哪些人可以申请租房补贴", None),
        ("装修进场需要哪些材料", None),
        ("审批人怎么找", None),
        ("男子500米速度滑冰金牌", AnswerKind.PERSON),
        ("最佳女主角", AnswerKind.PERSON),
        ("张家口赛区共产生了几块金牌", AnswerKind.NUMBER),
        ("这部剧有几位主演", AnswerKind.NUMBER),
        ("世界杯总奖金", AnswerKind.NUMBER),
        ("今年环境日的主题是什么", AnswerKind.NAME),
        ("C919的全称是什么", AnswerKind.NAME),
    ],
)
def test_the_asked_kind_comes_from_the_question_form(question: str, kind: AnswerKind | None) -> None:
    assert answer_kind(question) is kind


def test_a_number_the_question_already_states_is_not_an_answer() -> None:
    question = "2021年全市新增就业多少人"
    assert answer_spans(AnswerKind.NUMBER, "2021年，全市实现新增就业。", question) == []
    assert answer_spans(AnswerKind.NUMBER, "2021年全市新增就业12.5万人。", question) == ["12.5万人"]


def test_years_and_dates_are_not_counts_but_are_dates() -> None:
    sentence = "活动于2023年5月30日举行。"
    assert answer_spans(AnswerKind.NUMBER, sentence, "参加人数是多少") == []
    assert answer_spans(AnswerKind.DATE, sentence, "活动什么时候举行") == ["2023年5月30日"]


def test_relative_time_limits_answer_a_when_question() -> None:
    assert answer_spans(AnswerKind.DATE, "请在入职前3个工作日内提交。", "体检报告什么时候交")


def test_people_and_roles_answer_who_places_answer_where() -> None:
    assert answer_spans(AnswerKind.PERSON, "由项目经理审批。", "谁审批")
    assert answer_spans(AnswerKind.PERSON, "该片由张艺谋执导。", "导演是谁")
    assert answer_spans(AnswerKind.PERSON, "影片于春节上映。", "导演是谁") == []
    assert answer_spans(AnswerKind.PLACE, "请到物业服务中心办理。", "在哪里办理")
    assert answer_spans(AnswerKind.PLACE, "请尽快办理。", "在哪里办理") == []


def test_where_money_goes_is_answered_by_an_account() -> None:
    step = "审核通过后5个工作日内，出纳将报销款转入报销人的工资卡，不支付现金。"
    assert [span[-3:] for span in answer_spans(AnswerKind.PLACE, step, "报销款打到哪里")] == ["工资卡"]
    deducted = "已经支付的违规款项，由财务部从工资中扣回。"
    assert answer_spans(AnswerKind.PLACE, deducted, "报销款打到哪里") == []


def test_who_receives_a_paper_is_named_after_the_hand_in_verb() -> None:
    step = "报销人将纸质发票原件交项目财务或财务部，财务部在收到完整材料后3个工作日内完成审核。"
    lead_in = "办理费用报销须提交以下材料，材料不全的，财务部退回补齐后再受理："
    for question in ("发票原件交到哪里", "发票原件要交给谁"):
        kind = answer_kind(question)
        assert kind in (AnswerKind.PLACE, AnswerKind.PERSON)
        assert states_an_answer(kind, step, question)
        assert not states_an_answer(kind, lead_in, question)  # 财务部 here sends papers back


def test_proper_names_are_tagged_by_kind() -> None:
    names = proper_names("张艺谋在北京执导了《满江红》")
    assert (NameKind.PERSON, "张艺谋") in names
    assert (NameKind.PLACE, "北京") in names
    assert (NameKind.OTHER, "《满江红》") in names


def test_a_time_the_text_points_at_is_not_a_name() -> None:
    assert proper_names("换言之本赛季将没有直接降级的球队。") == []
    assert (NameKind.PERSON, "上赛季") not in proper_names("而上赛季的中超冠军停止运营。")
    assert (NameKind.PERSON, "武磊") in proper_names("今年冠军是武磊")


def test_identifiers_pin_the_question_down() -> None:
    ids = question_identifiers("第28届颁奖典礼在哪举行")
    assert ids == ("第28届",)
    assert names_identifiers("第28届颁奖典礼在上海举行", ids)
    assert not names_identifiers("第27届颁奖典礼在上海举行", ids)
    assert question_identifiers("M1芯片的设计师是谁") == ("M1",)


def test_an_identifier_may_be_written_with_its_letters_and_digits_apart() -> None:
    assert names_identifiers("OpenAI正式发布GPT-4。", ("GPT4",))
    assert names_identifiers("CVPR 2022在美国新奥尔良举行。", ("CVPR2022",))
    assert names_identifiers("A3栋外墙维修完成。", ("A3",))
    assert not names_identifiers("OpenAI正式发布GPT-40。", ("GPT4",))
    assert not names_identifiers("CVPR 2023在加拿大温哥华举行。", ("CVPR2022",))


def test_a_sentence_dated_to_another_year_only_is_about_that_year() -> None:
    years = question_years("2021年全国出生人口多少")
    assert years == frozenset({2021})
    assert names_other_year("2020年全国出生人口1200万人", years)
    assert not names_other_year("2021年全国出生人口1062万人，比2020年减少", years)
    assert not names_other_year("全国出生人口1062万人", years)
    assert not names_other_year("自2019年起按新口径统计", years)
    assert not names_other_year("本办法自2019年1月1日起施行", years)
    assert names_other_year("2019年1月1日发布", years)


@pytest.mark.parametrize(
    "question",
    [
        "劳动者在哪些情况下可以不提前通知就解除合同",
        "给员工指派训练时截止日期怎么设置",
        "在哪里怎么办理门禁卡",
    ],
)
def test_how_to_and_list_questions_ask_for_no_single_span(question: str) -> None:
    assert answer_kind(question) is None


@pytest.mark.parametrize(
    ("sentence", "question", "spans"),
    [
        ("每个阶段的结果会在阶段结束后3个工作日内通知候选人。", "面试一共几个阶段", []),
        ("面试分为6个阶段。", "面试一共几个阶段", ["6个"]),
        ("员工累计工作已满1年不满10年的，年休假5天；", "年假有几天", ["5天"]),
        ("本次共有100人参加。", "有几个人参加", ["100人"]),
        ("休息日安排工作的，支付不低于工资的百分之二百的工资报酬。", "周末加班给几倍工资", ["百分之二百"]),
        ("所在单位应当自事故伤害发生之日起30日内提出工伤认定申请。", "工伤了公司要赔多少", []),
    ],
)
def test_a_count_question_is_answered_only_by_a_number_of_what_it_counts(
    sentence: str, question: str, spans: list[str]
) -> None:
    assert answer_spans(AnswerKind.NUMBER, sentence, question) == spans


def test_a_lead_in_to_a_list_of_the_counted_things_answers_by_listing() -> None:
    assert lists_what_is_counted("银城物业的招聘面试流程分为以下阶段：", "面试一共几个阶段")
    later = "每个阶段的结果会在阶段结束后3个工作日内通知候选人。"
    assert not lists_what_is_counted(later, "面试一共几个阶段")
    assert not lists_what_is_counted("办理费用报销须提交以下材料：", "面试一共几个阶段")
    assert not lists_what_is_counted("银城物业的招聘面试流程分为以下阶段：", "面试在哪里举行")
    # The list must be of the counted things: 困人 names no people a list of acts could count.
    assert not lists_what_is_counted("电梯困人处置中严禁以下行为：", "消防控制室要几个人")
    assert lists_what_is_counted("以下人员须持证上岗：", "要几个人持证")
    assert lists_what_is_counted("银城物业的招聘面试流程分为以下阶段：", "面试有几个环节")


def test_working_days_answer_a_how_many_days_question() -> None:
    sentence = "员工进入待复盘名单后，主管应在3个工作日内完成复盘；"
    assert answer_spans(AnswerKind.NUMBER, sentence, "复盘要在几天内完成")


def test_a_decade_long_before_the_asked_year_is_another_time() -> None:
    asked = frozenset({2021})
    assert names_other_year("上世纪60年代到80年代，香港经济腾飞，GDP年均增长速度近9%。", asked)
    assert not names_other_year("2021年香港GDP增长6.4%，为80年代以来最高。", asked)
    assert not names_other_year("香港GDP增长6.4%。", asked)


def test_an_identifier_is_matched_whole_and_a_distance_pins_an_event() -> None:
    ids = question_identifiers("北京冬奥会男子500米速度滑冰金牌")
    assert ids == ("500米",)
    assert names_identifiers("高亭宇获得男子500米速度滑冰金牌", ids)
    assert not names_identifiers("她又增加了女子1500米金牌", ids)
    assert not names_identifiers("13号楼停水", ("3号",))
    assert names_identifiers("小米Mix4搭载骁龙888Plus", question_identifiers("小米MIX4的处理器是什么"))


def test_a_span_the_question_states_in_other_case_is_not_new() -> None:
    question = "小米MIX4的处理器是什么"
    assert answer_spans(AnswerKind.NAME, "更多关于小米Mix4的信息请关注本站。", question) == []


def test_a_year_put_straight_before_the_subject_is_the_year_asked() -> None:
    assert question_years("2022春运开始时间") == frozenset({2022})
    assert question_years("2022清明档票房是多少") == frozenset({2022})
    assert question_years("2000元以上的采购谁审批") == frozenset()
    assert question_years("2000多人参加的活动在哪") == frozenset()
    assert question_years("2025版报销制度的住宿标准是多少") == frozenset()


def test_digits_inside_a_longer_number_are_not_a_day() -> None:
    assert answer_spans(AnswerKind.DATE, "粤ICP备17055554号", "春运什么时候开始") == []
    assert answer_spans(AnswerKind.DATE, "春运于1月17日开始", "春运什么时候开始") == ["1月17日"]


def test_a_bare_year_does_not_answer_when_the_question_names_its_year() -> None:
    assert answer_spans(AnswerKind.DATE, "旅客量与2021年基本持平。", "2022春运开始时间") == []
    assert answer_spans(AnswerKind.DATE, "2022年春运从1月17日开始。", "2022春运开始时间") == ["1月17日"]
    assert answer_spans(AnswerKind.DATE, "该公司成立于1998年。", "该公司哪一年成立") == ["1998年"]


def test_a_percentage_does_not_answer_a_question_about_a_total() -> None:
    share = "宝马集团在中国市场的销量已占全球销量的近34%。"
    assert answer_spans(AnswerKind.NUMBER, share, "2021年宝马全球销量？") == []
    assert answer_spans(AnswerKind.NUMBER, "销量同比增长8.9%。", "2021年宝马销量增长了多少") == ["8.9%"]
    overtime = "休息日安排劳动者工作的，支付不低于工资的200%的工资报酬。"
    assert answer_spans(AnswerKind.NUMBER, overtime, "休息日加班费是多少") == ["200%"]
    assert answer_spans(AnswerKind.NUMBER, "工业增加值增长9.6%。", "2021年工业增加值增长了多少") == ["9.6%"]
    assert answer_spans(AnswerKind.NUMBER, "出生率为7.52‰。", "2021年人口出生率") == ["7.52‰"]


def test_a_sibling_of_the_asked_identifier_is_another_subject() -> None:
    asked = question_identifiers("神舟十六号发射时间")
    assert names_other_identifier("预计10月发射的神舟十七号", asked)
    assert not names_other_identifier("神舟十六号与神舟十七号先后发射", asked)
    assert not names_other_identifier("飞船定于5月30日发射", asked)
    assert names_other_identifier("第27届颁奖典礼在上海举行", question_identifiers("第28届颁奖典礼在哪举行"))
    assert not names_other_identifier("3号楼停水", question_identifiers("M1芯片的设计师是谁"))


def test_a_number_counts_for_the_year_named_nearest_before_it() -> None:
    question = "2022清明档票房是多少"
    other = "截至4月5日，2023年清明档总票房已突破1.92亿元，超过2022年清明档总票房。"
    assert answer_spans(AnswerKind.NUMBER, other, question) == []
    assert answer_spans(AnswerKind.NUMBER, "2022年清明档总票房为1.2亿元。", question) == ["1.2亿元"]
    assert answer_spans(AnswerKind.NUMBER, "清明档总票房为1.2亿元，低于2019年。", question) == ["1.2亿元"]
    assert answer_spans(AnswerKind.NUMBER, other, "清明档票房是多少") == ["1.92亿元"]


def test_a_figure_for_part_of_the_year_does_not_answer_for_the_whole_year() -> None:
    question = "2021年我国工业增加值增长了多少"
    part = "1-2月份，高技术制造业增加值同比增长14.4%，明显快于全部工业。"
    assert answer_spans(AnswerKind.NUMBER, part, question) == []
    assert answer_spans(AnswerKind.NUMBER, "2021年全年工业增加值增长9.6%。", question) == ["9.6%"]
    assert answer_spans(AnswerKind.NUMBER, part, "2021年1-2月份高技术制造业增加值增长了多少") == ["14.4%"]


def test_a_length_of_time_or_an_age_does_not_answer_a_total() -> None:
    question = "春运首日旅客发送量"
    assert answer_spans(AnswerKind.NUMBER, "近4年春运期间，旅客发送量均出现下滑。", question) == []
    assert answer_spans(AnswerKind.NUMBER, "首日旅客发送量3473.6万人次。", question) == ["3473.6万人次"]
    assert answer_spans(AnswerKind.NUMBER, "志愿者须年满18岁。", "冬奥会志愿者人数") == []
    assert answer_spans(AnswerKind.NUMBER, "志愿者须年满18周岁。", "冬奥会志愿者人数") == []
    assert answer_spans(AnswerKind.NUMBER, "年休假最多15天。", "年休假最多几天") == ["15天"]


def test_teams_and_clubs_answer_who_won_but_a_group_does_not() -> None:
    assert answer_spans(AnswerKind.PERSON, "洛杉矶公羊队以23-20获得超级碗冠军。", "超级碗冠军是谁") == [
        "洛杉矶公羊队"
    ]
    assert answer_spans(AnswerKind.PERSON, "皇家马德里俱乐部夺得冠军。", "冠军是谁")
    assert answer_spans(AnswerKind.PERSON, "该片由电影集团出品。", "导演是谁") == []


def test_phone_numbers_document_numbers_and_list_markers_are_not_quantities() -> None:
    sentence = "1、登录系统查询 2、拨打电话12580查询"
    assert answer_spans(AnswerKind.NUMBER, sentence, "指标有多少个") == []
    assert answer_spans(AnswerKind.DATE, "（渝医保发〔2023〕2号）的政策解读", "实施的时间") == []
    assert answer_spans(
        AnswerKind.NUMBER, "客服电话：400-800-1234，押金2000元。3. 另收水电费", "押金多少"
    ) == ["2000元"]


def test_a_year_before_a_quoted_name_dates_the_sentence() -> None:
    assert names_other_year("2021“中国旅游文化周”启动仪式在银川举行。", frozenset({2022}))
    assert not names_other_year("2022“中国旅游文化周”启动仪式在曼谷举行。", frozenset({2022}))


def test_how_many_people_or_how_much_money_is_answered_in_that_unit() -> None:
    assert (
        answer_spans(AnswerKind.NUMBER, "志愿者须年满18周岁，做到下面3点即可报名。", "志愿者有多少人") == []
    )
    assert answer_spans(AnswerKind.NUMBER, "共招募志愿者1.4万名。", "志愿者有多少人") == ["1.4万名"]
    assert answer_spans(AnswerKind.NUMBER, "罚款8760万元，涉及3个平台。", "被罚了多少钱") == ["8760万元"]
    assert answer_spans(AnswerKind.NUMBER, "按日工资收入的300%支付。", "要支付多少年休假工资报酬") == ["300%"]


def test_money_in_any_currency_and_head_counts_in_wan_or_yi_answer_how_many() -> None:
    assert answer_spans(AnswerKind.NUMBER, "交易总价值687亿美元。", "花了多少钱收购") == ["687亿"]
    assert answer_spans(AnswerKind.NUMBER, "金额为6.2万亿兹罗提。", "要求赔偿多少钱") == ["6.2万亿"]
    assert answer_spans(AnswerKind.NUMBER, "网民规模为10.51亿，较上年增加。", "网民有多少人") == ["10.51亿"]
    assert answer_spans(AnswerKind.NUMBER, "网民规模为10.51亿台设备。", "网民有多少人") == []


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("韩国在世界杯的成绩", AnswerKind.RESULT),
        ("中国女篮小组赛最终排名？", AnswerKind.RESULT),
        ("2023年奥斯卡最佳影片", AnswerKind.NAME),
        ("温网女单亚军", AnswerKind.NAME),
        ("亚洲杯举办国？", AnswerKind.PLACE),
        ("五一旅游人次", AnswerKind.NUMBER),
        ("最佳实践是什么", None),
        ("岗前考试成绩多少分合格", AnswerKind.NUMBER),
    ],
)
def test_results_titles_and_host_countries_are_kinds_of_answer(
    question: str, kind: AnswerKind | None
) -> None:
    assert answer_kind(question) is kind


def test_a_result_is_a_place_in_the_ranking_or_a_score() -> None:
    assert answer_spans(AnswerKind.RESULT, "中国女篮最终获得亚军。", "中国女篮成绩") == ["亚军"]
    assert answer_spans(AnswerKind.RESULT, "韩国队止步16强。", "韩国的成绩") == ["止步", "16强"]
    assert answer_spans(AnswerKind.RESULT, "比赛将于11月20日开幕。", "韩国的成绩") == []


def test_snippet_dates_months_and_model_numbers_are_not_counts() -> None:
    assert answer_spans(AnswerKind.NUMBER, "Jun 17, 2023 ... 地铁附近的公交车站", "地铁有多少个车站") == []
    assert answer_spans(AnswerKind.NUMBER, "7 days ago ... 台积电在美国设立新厂", "新厂投资多少") == []
    assert answer_spans(AnswerKind.NUMBER, "预计今年10月中下旬公布参考人数", "国考实际参考人数") == []
    assert answer_spans(AnswerKind.NUMBER, "这两个品牌中，宝马iX3销量突破2.1万辆。", "宝马销量") == [
        "2.1万辆"
    ]
    assert answer_spans(AnswerKind.NUMBER, "试用期不超过3个月。", "试用期最长多久") == ["3个月"]
    assert answer_spans(AnswerKind.DATE, "预计今年10月中下旬公布。", "什么时候公布") == ["10月"]


def test_a_share_is_answered_by_a_percentage() -> None:
    assert answer_spans(AnswerKind.NUMBER, "从4个省份的数据来看，出生率持续下降。", "全国人口出生率") == []
    assert answer_spans(AnswerKind.NUMBER, "全国人口出生率为7.52‰。", "全国人口出生率") == ["7.52‰"]
    assert answer_spans(AnswerKind.NUMBER, "物业费收缴率达到95%。", "物业费收缴率是多少") == ["95%"]


def test_the_date_a_figure_is_counted_to_is_not_the_date_of_the_event() -> None:
    sentence = "截至11月23日14:11，发行方股价涨幅5.78%。"
    assert answer_spans(AnswerKind.DATE, sentence, "国内上映日期") == []
    assert answer_spans(AnswerKind.DATE, "报名截止到2023年5月10日。", "报名截止时间") == ["2023年5月10日"]
    assert answer_spans(AnswerKind.DATE, "截至2022年6月，项目已于3月1日开工。", "什么时候开工") == ["3月1日"]


def test_where_an_event_takes_place_is_a_place_it_takes_place_in() -> None:
    question = "戈尔巴乔夫的葬礼将在哪里举行？"
    assert answer_spans(AnswerKind.PLACE, "奥地利《新闻报》指出，许多政客没有来参加葬礼。", question) == []
    assert answer_spans(AnswerKind.PLACE, "葬礼将在上海举行。", question) == ["上海"]
    assert answer_spans(AnswerKind.PLACE, "苹果在印度孟买开设了首家旗舰店。", "旗舰店在哪个城市")


def test_a_name_followed_by_a_persons_act_or_joined_by_a_middle_dot_is_a_person() -> None:
    assert (NameKind.PERSON, "吴京") in proper_names("吴京主演的电影总票房突破300亿元。")
    assert (NameKind.PLACE, "北京") in proper_names("张艺谋在北京执导了新片。")
    people = [text for kind, text in proper_names("选手安娜·谢尔巴科娃获得金牌。") if kind is NameKind.PERSON]
    assert any("安娜·谢尔巴科娃" in text for text in people)
    assert answer_spans(AnswerKind.PERSON, "吴京主演的电影总票房突破300亿元。", "票房最高的演员是谁")


def test_clock_times_and_iso_dates_are_not_counts() -> None:
    sentence = "2022-01-11 18:43:00 长安汽车销量出炉：230万辆"
    assert answer_spans(AnswerKind.NUMBER, sentence, "长安汽车销量是多少") == ["230万辆"]


def test_codes_ordinals_and_bare_years_are_not_counts() -> None:
    assert answer_spans(AnswerKind.NUMBER, "地铁一期工程施工03合同段附近的公交车站", "有多少个车站") == []
    assert answer_spans(AnswerKind.NUMBER, "咨询电话17055554，自2006起实行", "指标有多少个") == []
    assert answer_spans(AnswerKind.NUMBER, "主席在第73届大会上作出承诺。", "总奖金多少") == []
    assert answer_spans(AnswerKind.NUMBER, "全线共设10座车站。", "有多少个车站") == ["10座"]


def test_a_place_word_is_a_place_not_a_generic_word_or_the_words_before_it() -> None:
    assert answer_spans(AnswerKind.PLACE, "年份 大会 地点（城市，国家）", "大会在哪举办") == []
    assert answer_spans(AnswerKind.PLACE, "业者认为网际网路存在问题。", "大会在哪里举办") == []
    sentence = "葬礼将于3日举行，地点在莫斯科工会大厦圆柱大厅。"
    assert "莫斯科工会大厦" in answer_spans(AnswerKind.PLACE, sentence, "葬礼将在哪里举行？")
    assert answer_spans(AnswerKind.PLACE, "请到中山路88号物业服务中心办理。", "在哪里办理")


def test_where_an_event_is_held_is_a_place_it_is_held_in() -> None:
    question = "2022世界5G大会举办的地点是哪里"
    attended = "中国铁塔董事长出席2022世界5G大会开幕式，并在大会主论坛上作主旨演讲。"
    assert answer_spans(AnswerKind.PLACE, attended, question) == []
    assert answer_spans(AnswerKind.PLACE, "2022世界5G大会在哈尔滨举办。", question) == ["哈尔滨"]


def test_a_time_of_day_answers_when_in_the_day_not_which_day() -> None:
    sentence = "今日下午，网之易发布关于暴雪游戏产品运营到期的公告。"
    assert answer_spans(AnswerKind.DATE, sentence, "暴雪游戏终止运营时间") == []
    assert answer_spans(AnswerKind.DATE, "电梯维保安排在下午。", "电梯维保几点开始") == ["下午"]


def test_a_target_or_a_bound_is_not_the_figure_asked_for() -> None:
    sentence = "按照规划，特斯拉2022年的交付量需要超过140万辆。"
    assert answer_spans(AnswerKind.NUMBER, sentence, "2022年特斯拉交付量") == []
    assert answer_spans(AnswerKind.NUMBER, sentence, "特斯拉计划2022年交付多少辆") == ["140万辆"]
    assert answer_spans(AnswerKind.NUMBER, "5000元以上的采购须经总经理审批。", "采购金额是多少") == []
    assert answer_spans(AnswerKind.NUMBER, "5000元以上的采购须经总经理审批。", "多少钱以上要总经理审批")
    assert answer_spans(AnswerKind.NUMBER, "2022年特斯拉交付131万辆。", "2022年特斯拉交付量") == ["131万辆"]


def test_a_label_is_quoted_or_given_not_any_proper_noun_nearby() -> None:
    question = "2023年春晚吉祥物是什么"
    assert answer_spans(AnswerKind.NAME, "吉祥物形象“兔圆圆”正式发布。", question) == ["“兔圆圆”"]
    assert answer_spans(AnswerKind.NAME, "历届吉祥物一览：广百观点融入了卡通感。", question) == []
    assert answer_spans(AnswerKind.NAME, "这艘航母命名为福建舰。", "第三艘航母名字") == ["命名为福建舰"]
    assert answer_spans(AnswerKind.NAME, "山东泰山队夺得中超冠军。", "中超冠军")


def test_a_measured_total_is_not_answered_by_a_count_of_things() -> None:
    question = "2022年全国棉花产量"
    assert answer_spans(AnswerKind.NUMBER, "全国棉花总产量为31个省棉花产量的总和。", question) == []
    assert answer_spans(AnswerKind.NUMBER, "全国棉花总产量597.7万吨。", question) == ["597.7万吨"]
    assert answer_spans(AnswerKind.NUMBER, "参加活动的志愿者共有30个。", "志愿者数量")


def test_a_latin_name_in_the_question_pins_it_down() -> None:
    asked = question_identifiers("2022年12月美国CPI上涨了多少？")
    assert asked == ("CPI",)
    assert not names_identifiers("美国10年期收益率上涨2.20个基点。", asked)
    assert names_identifiers("美国12月cpi同比上涨6.5%。", asked)


def test_scheduled_figures_day_counts_rankings_titled_names_and_full_names_answer() -> None:
    assert answer_spans(AnswerKind.NUMBER, "女足世界杯总奖金将达到1.52亿美元。", "女足世界杯总奖金") == [
        "1.52亿"
    ]
    assert answer_spans(AnswerKind.NUMBER, "特拉斯在被任命为首相的第45天辞职。", "特拉斯当了多久首相") == [
        "45天"
    ]
    assert answer_spans(AnswerKind.RESULT, "韩国国足最终排名第16。", "韩国在世界杯的成绩") == ["排名第16"]
    assert answer_spans(AnswerKind.PERSON, "演员吴京的个人总票房达到300亿元。", "票房最高的演员是谁")
    assert answer_spans(AnswerKind.NAME, "其实C919的全称是“COMAC919”。", "C919的全称是什么？") == [
        "“COMAC919”"
    ]
    assert answer_spans(AnswerKind.NAME, "小米Mix4搭载骁龙处理器。", "小米MIX4叫什么") == []


def test_a_figure_for_another_part_of_the_year_does_not_answer() -> None:
    question = "汤臣倍健2022年上半年的营收为多少？"
    sentence = "汤臣倍健今年一季度研发费用增加至0.31亿元。"
    assert answer_spans(AnswerKind.NUMBER, sentence, question) == []
    assert answer_spans(AnswerKind.NUMBER, "2022年上半年实现营收42.21亿元。", question) == ["42.21亿元"]
    sentence = "一季度GDP同比增速从四季度的2.9%上行至4.5%。"
    assert "4.5%" in answer_spans(AnswerKind.NUMBER, sentence, "2023年1季度GDP增速")


def test_a_latin_abbreviation_is_also_stated_spelled_out() -> None:
    asked = question_identifiers("2023一季度中国GDP增长率")
    assert names_identifiers("今年一季度国内生产总值同比增长4.5%。", asked)
    assert not names_identifiers("今年一季度经济同比增长4.5%。", asked)


def test_a_part_of_the_year_pins_the_question_down() -> None:
    asked = question_identifiers("一汽解放2022年上半年中重卡销量")
    assert "上半年" in asked
    assert not names_identifiers("一汽解放累计销量12.77万辆，位居行业第二。", asked)
    assert names_other_identifier("一季度销量4.2万辆。", question_identifiers("2023年四季度销量"))


def test_a_word_of_the_year_is_a_label() -> None:
    question = "柯林斯词典2022年年度词汇"
    assert answer_kind(question) is AnswerKind.NAME
    assert answer_spans(AnswerKind.NAME, "2022年度词汇为“Permacrisis”。", question) == ["“Permacrisis”"]
    assert answer_spans(AnswerKind.NAME, "词典编纂者每年都会评选年度词汇。", question) == []


def test_a_part_of_the_year_may_be_stated_as_its_months() -> None:
    asked = question_identifiers("汤臣倍健2022年上半年的营收为多少？")
    assert names_identifiers("汤臣倍健在2022年的1月至6月份的营业收入为42.21亿元。", asked)
    assert not names_identifiers("汤臣倍健在2022年的1月至3月份的营业收入为20亿元。", asked)


def test_the_whole_year_figure_does_not_answer_for_a_month() -> None:
    question = "2022年8月我国汽车出口量"
    assert answer_spans(AnswerKind.NUMBER, "2022年我国汽车出口突破300万辆。", question) == []
    assert answer_spans(AnswerKind.NUMBER, "2022年8月，我国汽车出口30.8万辆。", question) == ["30.8万辆"]
    assert answer_spans(AnswerKind.NUMBER, "8月份我国汽车出口30.8万辆。", question) == ["30.8万辆"]


def test_a_fine_does_not_answer_what_is_paid_out_nor_the_reverse() -> None:
    fine = "用人单位拒不协助调查的，处2000元以上2万元以下的罚款。"
    benefit = "职工因工致残的，从工伤保险基金中一次性支付伤残补助金，标准为27个月的本人工资。"
    assert not states_an_answer(AnswerKind.NUMBER, fine, "工伤了公司要赔多少")
    assert states_an_answer(AnswerKind.NUMBER, benefit, "工伤了公司要赔多少")
    assert states_an_answer(AnswerKind.NUMBER, fine, "不协助调查要罚多少")
    assert not states_an_answer(AnswerKind.NUMBER, benefit, "不协助调查要罚多少")


@pytest.mark.parametrize(
    "sentence",
    [
        "4. 物品到场后由项目仓管员验收，填写《物品验收单》。",
        "由工程部在3个工作日内完成方案审核。",
        "交出纳核对。",
    ],
)
def test_a_company_role_answers_who(sentence: str) -> None:
    assert states_an_answer(AnswerKind.PERSON, sentence, "谁来验收")


def test_a_fine_is_a_sum_of_money_not_a_length_of_time() -> None:
    assert (
        answer_spans(AnswerKind.NUMBER, "装修期最长为90日，确需延期的须在到期前7日内申请。", "装修违规罚多少")
        == []
    )
    assert answer_spans(AnswerKind.NUMBER, "处五千元以上五万元以下罚款。", "装修违规罚多少") == [
        "五千元",
        "五万元",
    ]


@pytest.mark.parametrize("question", ["华府和公司规定不一样以哪个为准", "两个规定冲突按哪个执行"])
def test_which_rule_prevails_asks_for_a_rule_not_a_name(question: str) -> None:
    assert answer_kind(question) is None


def test_a_payout_in_months_of_wages_answers_how_much_but_a_time_limit_does_not() -> None:
    question = "工伤了公司要赔多少"
    assert "27个月" in answer_spans(AnswerKind.NUMBER, "一次性伤残补助金，标准为27个月的本人工资。", question)
    assert answer_spans(AnswerKind.NUMBER, "应在1年以内提出申请。", question) == []


def test_what_time_asks_for_a_clock_time_not_a_day_count() -> None:
    question = "装修几点能施工"
    assert answer_spans(AnswerKind.DATE, "工作日为8:00至12:00、14:00至18:00。", question)
    assert answer_spans(AnswerKind.DATE, "工程部在3个工作日内完成验收。", question) == []


def test_the_words_of_a_pointed_at_item_are_asked_about_not_already_known() -> None:
    step = "2. 项目经理确认该物品属于零星采购范围，并核对本月累计额度后签字同意。"
    question = "“项目经理确认该物品属于零星采购范围，并核对本月累计额度后签字同意。”是谁签字"
    assert "项目经理" in answer_spans(AnswerKind.PERSON, step, question)
    assert "项目经理" not in answer_spans(AnswerKind.PERSON, step, "项目经理要签字吗，还有谁签字")


def test_a_question_asking_which_institution_is_answered_by_the_class_a_rule_names() -> None:
    rule = "入职体检应在二级以上医院或公司指定的体检机构进行，体检日期距入职报到日期不超过3个月。"
    assert states_an_answer(AnswerKind.PLACE, rule, "体检去哪家医院做")
    assert states_an_answer(AnswerKind.PLACE, rule, "体检在哪做"), "where a service is had: an institution"
    assert not states_an_answer(AnswerKind.PLACE, "伤者被送往市第一人民医院救治。", "颁奖典礼在哪里举行")


def test_a_question_asking_who_pays_is_answered_by_the_payer_in_a_paying_frame() -> None:
    fund = "治疗工伤所需费用符合工伤保险诊疗项目目录的，从工伤保险基金支付。"
    assert states_an_answer(AnswerKind.PERSON, fund, "工伤了医药费谁出")
    assert states_an_answer(AnswerKind.PERSON, "体检费用由候选人先行垫付，入职满1个月后报销。", "体检费谁出")
    assert not states_an_answer(
        AnswerKind.PERSON, "职工治疗工伤应当在签订服务协议的医疗机构就医。", "医药费谁出"
    )
