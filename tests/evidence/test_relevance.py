"""The relevance gate's building blocks: question terms, term coverage, fragment relevance."""

from __future__ import annotations

import pytest

from shifu.evidence.relevance import members_in_scope, mentions_subject, relevance, term_coverage
from shifu.nlp.quantities import asked_in_place_of_confirmed
from shifu.nlp.quantity_asks import (
    DURATIONS,
    QuantityKind,
    asked_measure,
    asked_qualifiers,
    asks_for_money,
    defers_the_quantity,
    lead_time_act,
    quantity_ask,
    states_asked_quantity,
    supports_quantity,
)
from shifu.nlp.scope_sections import scope_members, without_exclusions
from shifu.nlp.terms import question_terms


@pytest.mark.parametrize(
    ("question", "dropped"),
    [
        ("公司食堂几点开饭", {"公司", "几点"}),
        ("年假要提前几天申请", {"几天", "要"}),
        ("500元的一笔采购如何报销", {"500", "一笔", "如何"}),
        ("报销的时候要交哪些材料", {"哪些", "材料", "时候"}),
        ("消防巡检每月要查哪些项目", {"哪些项目", "每月"}),
        ("电梯困人了第一步该做什么", {"第一步"}),
        ("主管能给别的项目的人派训练吗", {"人派", "人"}),
        ("给组员指派训练有什么规范", {"规范", "什么"}),
        ("给员工指派训练最多能派几项", {"最派", "最多能", "最"}),
        ("我想请三天年假怎么弄", {"怎么弄"}),
        ("消防器材由谁来检查", {"由谁来"}),
        ("装修押金分哪几种", {"哪几种"}),
        ("入职几天内能领工牌", {"内能", "几天内"}),
        ("费用发生后多久内能提交报销", {"内能", "多久"}),
        ("应聘保洁岗要额外交什么", {"外交", "额外", "岗要"}),
        ("零星采购一个月最多能花多少", {"一个月"}),
        ("没图，就是电梯困人了该怎么处理", {"没图", "就是"}),
        ("不是问图片，我说的是报销要交哪些材料", {"不是", "说的是"}),
        ("维保三个小时内要到场吗", {"三个小时"}),
        ("物业服务人对业主负有哪些安全保障方面的义务", {"负有"}),
        ("年会的举办地点在哪里", {"地点"}),
        ("新系统的名称是什么", {"名称"}),
        ("韩国队在世界杯的成绩", {"成绩"}),
        ("梁冠华在《相逢时节》中演的谁", {"中演"}),
        ("业主不交物业费能停他家的水吗", {"他家"}),
        ("3栋1单元电梯困人了怎么办", {"单元", "栋"}),
        ("2号楼1201室业主报修回访怎么做", {"号楼", "室业"}),
        ("电梯困人能不能自己撬门", {"不能自己", "能不能"}),
        ("采购500块钱的东西需要谁批", {"块钱"}),
        ("新版装修管理规定押金多少", {"新版"}),
        ("V2版本的报销制度怎么规定的", {"版本"}),
        ("年假天数", {"天数"}),
        ("3栋消防通道巡检 第二项怎么做", {"第二项"}),
        ("那要提前几天申请年假", {"那要"}),
        ("复盘记录要写啥", {"写啥"}),
        ("催费打电话最晚几点", {"最晚"}),
        ("电梯坏了困住人咋整", {"人整", "整"}),
        ("报销的钱啥时候到账", {"啥时候"}),
        ("巡检时有哪些注意事项", {"时有"}),
        ("发票原件交到哪里", {"交到"}),
        ("发票原件要交给谁", {"交给"}),
        ("体检报告去哪家医院做都行吗", {"都行", "哪家"}),
    ],
)
def test_question_words_generic_words_and_numbers_are_not_terms(question: str, dropped: set[str]) -> None:
    texts = {term.text for term in question_terms(question).terms}
    assert texts and not texts & dropped


@pytest.mark.parametrize(
    ("question", "term"), [("新员工第一个月要派几项训练", "首月"), ("头一年有年假吗", "首年")]
)
def test_the_first_period_is_read_as_rules_write_it(question: str, term: str) -> None:
    texts = {t.text for t in question_terms(question).terms}
    assert term in texts and "第一个" not in texts


@pytest.mark.parametrize("question", ["装修押金怎么退", "押金什么时候退", "押金能不能退"])
def test_a_refund_asked_with_one_character_is_read_as_退还(question: str) -> None:
    assert "退还" in {term.text for term in question_terms(question).terms}


@pytest.mark.parametrize(
    ("question", "thing"), [("报销额度用完了怎么办", "额度"), ("零星采购额度超了怎么办", "额度")]
)
def test_a_question_word_that_something_happened_to_is_the_subject(question: str, thing: str) -> None:
    terms = question_terms(question)
    assert thing in terms.required, "额度用完了 is about the quota, not about every rule that mentions 超过"
    assert "额度" not in {term.text for term in question_terms("报销额度是多少").terms}


@pytest.mark.parametrize("question", ["员工考了50分怎么办", "孙八练了55分要复盘吗", "测验只有50分怎么办"])
def test_a_score_someone_got_is_read_as_the_rules_得分(question: str) -> None:
    assert "得分" in question_terms(question).required


@pytest.mark.parametrize("question", ["资料交晚了怎么办", "报销交晚了怎么办", "材料迟交了怎么办"])
def test_handing_something_in_late_is_read_as_the_rules_逾期(question: str) -> None:
    assert "逾期" in question_terms(question).required


@pytest.mark.parametrize("question", ["迟到扣钱吗", "交班时接班人迟到了怎么办"])
def test_coming_late_is_no_late_hand_in_and_is_the_rules_未按时到岗(question: str) -> None:
    terms = question_terms(question)
    assert "逾期" not in terms.required
    assert term_coverage("迟到", "接班人员未按时到岗的，交班人员不得离岗。") == 1.0


@pytest.mark.parametrize(
    ("question", "deducted"), [("事假扣钱吗", True), ("违规报销会扣工资吗", True), ("扣分吗", False)]
)
def test_pay_kept_back_is_read_as_the_rules_工资(question: str, deducted: bool) -> None:
    assert ("工资" in [term.text for term in question_terms(question).terms]) is deducted


@pytest.mark.parametrize(
    ("question", "acted"),
    [("请假没批就走了会怎么样", True), ("没经过审批就休假怎么办", True), ("报销没批下来怎么办", False)],
)
def test_acting_before_approval_is_read_as_the_rules_未经批准(question: str, acted: bool) -> None:
    assert ("未经" in question_terms(question).required) is acted


@pytest.mark.parametrize(
    ("question", "hit"),
    [("我被业主打了", True), ("上班时被人打伤了算工伤吗", True), ("被打扰了怎么办", False)],
)
def test_being_hit_is_read_as_the_rules_暴力_and_who_hit_is_no_subject(question: str, hit: bool) -> None:
    required = question_terms(question).required
    assert ("暴力" in required) is hit
    assert "业主" not in required


@pytest.mark.parametrize("question", ["华府的装修材料几点能进", "装修工人什么时候可以进来"])
def test_things_or_workers_coming_in_is_read_as_the_rules_进场(question: str) -> None:
    assert "进场" in question_terms(question).required


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("公司食堂几点开饭", "食堂"),
        ("员工结婚可以休几天婚假", "婚假"),
        ("500元的一笔采购如何报销", "采购"),
        ("年假要提前几天申请", "年假"),
        ("电梯困人事件记录表里要填哪些内容", "记录表"),
        ("消防器材由谁来检查", "消防器材"),
        ("应聘工程维修岗要准备什么", "工程维修岗"),
        ("请3天假谁批", "请假"),
        ("休两天病假要什么证明", "病假"),
        ("一天最多能加几个小时班", "加班"),
        ("忘了打卡怎么办", "忘了"),  # what happened must be stated, not only 打卡
        ("零星采购额度超了怎么办", "超了"),  # not the procedure of every purchase
    ],
)
def test_the_most_specific_subject_term_is_required(question: str, subject: str) -> None:
    assert subject in question_terms(question).required


def test_an_instance_named_before_这种_is_not_the_subject() -> None:
    terms = question_terms("买灯泡这种零星采购要怎么审批")
    assert "零星采购" in terms.required and "灯泡" not in terms.required
    assert "灯泡" in {term.text for term in terms.terms}


@pytest.mark.parametrize("question", ["工具类的东西离职要还吗", "电器类物品离职要还吗"])
def test_a_category_named_before_类_is_part_of_the_subject(question: str) -> None:
    category = question[: question.index("类")]
    required = question_terms(question).required
    assert category in required and "离职" in required


def test_a_leaving_rule_that_never_names_the_category_is_not_about_the_question() -> None:
    terms = question_terms("工具类的东西离职要还吗")
    law = "用人单位应当在解除或者终止劳动合同时出具解除或者终止劳动合同的证明。"
    assert not relevance(terms, law).required_covered


@pytest.mark.parametrize(
    ("term", "haystack", "coverage"),
    [
        ("婚假", "员工依法登记结婚的，享受婚假3天。", 1.0),
        ("表哥", "向本人或亲属经营的商户采购。", 1.0),
        ("狠话", "使用威胁、侮辱性语言，或频繁骚扰业主。", 1.0),
        ("出车祸", "在上下班途中，受到非本人主要责任的交通事故伤害的；", 1.0),
        ("上班路上", "在上下班途中，受到非本人主要责任的交通事故伤害的；", 1.0),
        ("名单", "在业主群张贴或公布欠费业主的姓名和房号。", 1.0),
        ("超了", "月度累计额度用完后，当月确需继续采购的，须书面说明原因。", 1.0),
        ("留到", "未使用的月度额度不得结转至下月。", 1.0),
        ("年假", "年休假须提前5个工作日申请。", 1.0),
        ("辞职", "劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。", 1.0),
        ("书面通知", "以书面形式通知用人单位", 1.0),
        ("月工资", "6个月的统筹地区上年度职工月平均工资", 1.0),
        ("审批", "项目经理核对本月累计额度后签字同意。", 1.0),
        ("回复", "投诉登记后，责任人应在2小时内与业主取得联系。", 1.0),
        ("组员", "主管只能向本人负责管理的项目的员工指派训练。", 1.0),
        ("一周岁", "对哺乳未满1周岁婴儿的女职工，不得安排夜班劳动。", 1.0),
        ("三个月", "体检日期距入职报到日期不超过3个月。", 1.0),
        ("给钱", "休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬。", 1.0),
        ("给钱", "员工应当按照规定穿着工作服。", 0.0),
        ("没签", "用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的", 1.0),
        ("走人", "劳动者在试用期内提前三日通知用人单位，可以解除劳动合同。", 1.0),
        ("打招呼", "劳动者在试用期内提前三日通知用人单位，可以解除劳动合同。", 1.0),
        ("工资待遇", "职工在年休假期间享受与正常工作期间相同的工资收入。", 1.0),
        ("买来", "经办人采购物品，并向供应商索取发票。", 1.0),
        ("列进", "员工出现以下情况之一的，系统自动将其列入主管的待复盘名单：", 1.0),
        ("休完", "对职工应休未休的年休假天数，单位应当支付年休假工资报酬。", 1.0),
        ("折现", "对职工应休未休的年休假天数，单位应当支付年休假工资报酬。", 1.0),
        ("按时", "用人单位未按前款规定提出工伤认定申请的", 1.0),
        ("申报", "用人单位未按前款规定提出工伤认定申请的", 1.0),
        ("走人", "员工应当按照规定穿着工作服。", 0.0),
        ("审批", "物品到场后由项目仓管员验收并登记入库。", 0.0),
        ("工作服", "员工应当按照规定穿着工作鞋。", 0.0),
        ("食堂", "国家实行劳动者每日工作时间不超过八小时的工时制度。", 0.0),
        ("春晚", "2023年春节联欢晚会正式发布吉祥物形象。", 1.0),
        ("国考", "中央机关2023年度考试录用公务员报名即将开始。", 1.0),
        ("春晚", "北京卫视跨年晚会发布吉祥物。", 0.0),
        ("开幕式", "张艺谋担任冬奥会开闭幕式总导演。", 1.0),
        ("销量", "2021年宝马集团向全球客户交付了252万辆汽车。", 1.0),
        ("震级", "芦山6.1级地震造成多人受伤。", 1.0),
        ("主演", "六界帝君应渊（成毅饰）与颜淡（杨紫饰）", 1.0),
        ("主演", "小区外墙装饰工程由维修部负责。", 0.0),
        ("不交", "业主欠费超过3个月的，由项目经理决定是否发出书面通知。", 1.0),
        ("不交", "物业费催缴中严禁以下行为：", 1.0),
        ("打电话", "在21:00至次日8:00期间电话催缴。", 1.0),
        ("消防通道", "疏散通道、楼梯间和安全出口是否畅通。", 1.0),
        ("举办", "消防演练于每季度末在地下车库举行。", 1.0),
        ("考试", "完成每个模块后的在线小测验，60分及格。", 1.0),
        ("召开", "项目例会每周一上午举行。", 1.0),
        ("举办", "业主大会的决定对业主具有约束力。", 0.0),
        ("中午", "工作日（周一至周五）为8:00至12:00、14:00至18:00。", 1.0),
        ("撬棍", "非专业人员扒门、撬门，或用工具强行打开轿厢门。", 1.0),
        ("没来", "接班人员未按时到岗的，交班人员不得离岗。", 1.0),
        ("点名", "在业主群张贴或公布欠费业主的姓名和房号。", 1.0),
        ("不好", "业主以服务不满意为由暂不缴费时，先认真倾听。", 1.0),
        ("没来", "维保人员到场后实施救援。", 0.0),
        ("打车", "包括差旅费、市内交通费、通讯费。", 1.0),
        ("出差", "包括差旅费、市内交通费、通讯费。", 1.0),
    ],
)
def test_term_coverage(term: str, haystack: str, coverage: float) -> None:
    assert term_coverage(term, haystack) == coverage


def test_an_unrelated_rule_is_not_relevant_to_an_out_of_corpus_question() -> None:
    terms = question_terms("公司食堂几点开饭")
    law = (
        "中华人民共和国劳动法\n第三十六条\n"
        "国家实行劳动者每日工作时间不超过八小时、平均每周工作时间不超过四十四小时的工时制度。"
    )
    assert not relevance(terms, law).relevant


def test_a_fragment_about_the_subject_is_relevant() -> None:
    terms = question_terms("员工结婚可以休几天婚假")
    policy = "请假管理制度\n二、请假类型有哪些\n4. 婚假：员工依法登记结婚的，享受婚假3天。"
    assert relevance(terms, policy).relevant


@pytest.mark.parametrize(
    ("question", "situation_covered", "silent"),
    [
        (
            "发票丢了怎么办",
            "费用报销管理制度\n六、特殊情况\n发票遗失的，由开票单位出具证明并加盖公章后报销。",
            "费用报销管理制度\n五、办理步骤\n1. 填写审批单并上传发票照片。\n2. 交发票原件给财务。",
        ),
        (
            "员工不同意复盘结果怎么办",
            "复盘办法\n五、异议处理\n员工对复盘结果有异议的，可在3日内向主管的上级申请复核。",
            "复盘办法\n三、复盘结果\n复盘结果记入员工训练档案，主管与员工逐项核对复盘结果。",
        ),
    ],
    ids=["lost-invoice", "disagreement"],
)
def test_a_situation_must_be_covered_not_only_its_subject(
    question: str, situation_covered: str, silent: str
) -> None:
    terms = question_terms(question)
    assert relevance(terms, situation_covered).relevant
    assert not relevance(terms, silent).relevant


def test_an_exclusion_sentence_does_not_make_a_document_about_what_it_excludes() -> None:
    body = (
        "本制度适用于日常费用报销。物资采购不适用本制度，按《零星采购管理办法》办理。"
        "单笔1000元以下由部门负责人审批。"
    )
    assert "采购" not in without_exclusions(body)
    terms = question_terms("500元的一笔采购如何报销")
    assert not relevance(terms, "费用报销管理制度\n" + without_exclusions(body)).relevant


def test_a_frequency_is_supported_under_a_heading_naming_the_subject_never_by_a_deadline() -> None:
    ask = quantity_ask("消防巡检多久一次")
    assert ask is not None
    terms = question_terms("消防巡检多久一次")
    heading = "二、消防巡检的频次要求\n"
    assert supports_quantity(ask, "1. 日常巡查：每日2次。", lambda s: mentions_subject(terms, heading + s))
    assert not supports_quantity(
        ask, "消防巡检发现的一般隐患在24小时内处理。", lambda s: mentions_subject(terms, s)
    )


def test_mentions_subject_looks_for_a_required_term() -> None:
    terms = question_terms("装修押金一户要交多少")
    assert mentions_subject(terms, "施工单位缴纳装修押金3000元")
    assert not mentions_subject(terms, "出入证工本费每张10元")


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("加班费按工资的百分之多少支付", {QuantityKind.RATIO}),
        ("没签合同要付几倍工资", {QuantityKind.MULTIPLE}),
        ("产假多少天", {QuantityKind.DAY}),
        ("年假天数", {QuantityKind.DAY}),
        ("电梯维保周期", DURATIONS | {QuantityKind.FREQUENCY}),
        ("每天延长工作时间不得超过几小时", {QuantityKind.HOUR}),
        ("失业保险金最长领几个月", {QuantityKind.MONTH}),
        ("最低招工年龄是多少周岁", {QuantityKind.AGE}),
        ("消防巡检多久一次", {QuantityKind.FREQUENCY}),
        ("每天哺乳时间有多少", DURATIONS),
        ("试用期工资最低不得低于多少", {QuantityKind.RATIO, QuantityKind.MULTIPLE}),
        ("签一年合同的试用期上限是多少", DURATIONS),
        ("医疗期是多少", DURATIONS),
    ],
)
def test_quantity_asks(question: str, kinds: set[QuantityKind]) -> None:
    ask = quantity_ask(question)
    assert ask is not None and kinds <= ask.kinds


@pytest.mark.parametrize("question", ["夜班补贴一个晚上多少钱", "500元的一笔采购如何报销", "押金要交几块钱"])
def test_money_questions_never_take_the_quantity_path(question: str) -> None:
    assert asks_for_money(question)
    assert quantity_ask(question) is None


def test_a_quantity_counts_only_in_a_sentence_about_the_subject() -> None:
    ask = quantity_ask("女职工产假多少天")
    assert ask is not None
    terms = question_terms("女职工产假多少天")
    about = lambda text: mentions_subject(terms, text)  # noqa: E731
    assert supports_quantity(ask, "女职工生育享受98天产假。", about)
    assert not supports_quantity(ask, "女职工应当遵守劳动纪律。年休假5天。", about)


def test_a_role_is_covered_by_the_act_that_fills_it_with_the_rest_of_the_term() -> None:
    assert term_coverage("审批人", "单笔1000元以下，由部门负责人审批。") == 1.0
    assert term_coverage("金牌得主", "最后谢尔巴科娃获得金牌。") == 1.0
    assert term_coverage("金牌得主", "谢尔巴科娃与特鲁索娃取得金牌与银牌。") == 1.0
    assert term_coverage("金牌得主", "特鲁索娃获得银牌。") < 1.0
    assert term_coverage("导演", "该片由张艺谋执导。") == 1.0
    assert term_coverage("导演", "该片由张艺谋监制。") == 0.0


def test_the_in_after_a_title_is_no_part_of_a_term_but_a_word_after_a_title_is() -> None:
    terms = [term.text for term in question_terms("梁冠华在《相逢时节》中演的谁").terms]
    assert terms == ["梁冠华", "相逢", "时节"]
    assert "中国" in {term.text for term in question_terms("《忠犬八公》中国版的导演是谁").terms}


def test_a_measure_is_covered_by_its_act_only_with_a_figure() -> None:
    assert term_coverage("发送量", "全国共发送旅客3473.6万人次") == 1.0
    assert term_coverage("增长率", "比上年增长2.6%") == 1.0
    assert term_coverage("发送量", "春运旅客发送工作平稳有序") < 1.0


CHECKLIST = "日常巡查应检查以下内容：\n1. 疏散通道、楼梯间是否畅通。\n2. 常闭式防火门是否处于关闭状态。"


def test_only_the_names_a_scope_lists_are_lent_not_words_inside_its_items() -> None:
    heading = "四、作业步骤"
    assert members_in_scope(question_terms("疏散通道堵了怎么处理"), CHECKLIST, heading) == ("疏散", "通道")
    assert members_in_scope(question_terms("工单完成了怎么关闭"), CHECKLIST, heading) == ()


def test_kinds_of_rule_listed_in_a_scope_are_not_things_it_covers() -> None:
    scope = (
        "本制度适用于日常费用报销，包括差旅费、通讯费和培训费。"
        "员工垫付的因公费用，须按本制度规定的权限、材料和时限办理报销。"
    )
    members = scope_members(scope)
    assert {"差旅费", "通讯费", "培训费"} <= members
    assert not members & {"材料", "时限"}
    terms = question_terms("培训费报销要什么材料")
    assert "培训费" in members_in_scope(terms, scope, "费用报销管理制度\n四、费用报销需提交的材料有哪些")


def test_scope_members_are_read_when_the_items_lost_their_line_breaks() -> None:
    joined = "公司设置的请假类型有以下几种：1. 年休假：带薪假期。2. 病假：因病休息。3. 事假：因私事请假。"
    assert {"年休假", "病假", "事假"} <= scope_members(joined)


@pytest.mark.parametrize(
    ("question", "sentence", "states"),
    [
        ("年假有几天", "已满10年不满20年的，年休假10天", True),
        ("年假有几天", "年休假须提前5个工作日在员工App提交申请", False),
        ("年假有几天", "一次连续休年休假超过3天的，还须提交工作交接说明", False),
        ("年假有几天", "可顺延至次年3月31日前休完", False),
        ("年假要提前几天申请", "年休假须提前5个工作日在员工App提交申请", True),
        ("年假要提前几天申请", "已满10年不满20年的，年休假10天", False),
        ("请假超过几天要经理批", "请假超过3天的由经理审批", True),
        ("消防巡检多久一次", "每月至少检查一次", True),
        ("岗前培训多少个小时", "岗前学习总时长不少于8学时，每学时45分钟", True),
        ("岗前培训有几个学时", "岗前学习总时长不少于8学时", True),
        # 多久内 asks a limit: 不超过3个月 states one, 入职满1个月后 is a condition.
        ("体检报告多久内有效", "体检日期距入职报到日期不超过3个月", True),
        ("体检报告多久内有效", "体检费用由候选人先行垫付，入职满1个月后凭体检发票报销", False),
        ("复盘要在几天内完成", "主管应在3个工作日内完成复盘", True),
        ("报销多久能到账", "审核通过后5个工作日内，出纳将报销款转入报销人的工资卡", True),
        ("请假超过几天要经理批", "请假天数不超过3天的由组长审批", False),
        # A named measure is stated by its limit.
        ("复盘时长多长", "提前1个工作日告知员工复盘时间，一般安排在非高峰时段，时长不超过30分钟", True),
        ("复盘要多长时间", "提前1个工作日告知员工复盘时间，一般安排在非高峰时段，时长不超过30分钟", False),
    ],
)
def test_the_asked_quantity_is_the_value_not_a_condition_or_lead_time(
    question: str, sentence: str, states: bool
) -> None:
    ask = quantity_ask(question)
    assert ask is not None
    assert states_asked_quantity(ask, sentence, asked_qualifiers(question)) is states


@pytest.mark.parametrize(
    ("sentence", "defers"),
    [
        ("5. 产假、陪产假：按国家和当地规定执行。", True),
        ("陪产假按照当地有关规定，由人力资源部核定。", True),
        ("对不履行职责导致事故整改和防范措施没有落实的有关单位和人员，应当按照有关规定追究责任。", False),
    ],
)
def test_only_a_rule_leaving_the_figure_to_other_rules_defers_it(sentence: str, defers: bool) -> None:
    assert defers_the_quantity(sentence, lambda _: True) is defers


@pytest.mark.parametrize("question", ["业主欠费好几次都不交怎么办", "提醒了三番五次还是不交"])
def test_something_happening_again_and_again_is_read_as_the_rules_多次(question: str) -> None:
    assert "多次" in [term.text for term in question_terms(question).terms]


@pytest.mark.parametrize(
    ("term", "text"),
    [
        ("不交", "多次提醒仍未缴费的，可建议业主与项目客服主管当面沟通。"),
        ("欠费", "多次提醒仍未缴费的，可建议业主与项目客服主管当面沟通。"),
        ("催费", "物业费催缴中严禁以下行为："),
        ("亲戚", "向业主的亲友、同事透露欠费情况。"),
        ("生病", "2. 病假：员工因病或非因工负伤需要治疗休息的假期。"),
        ("离职证明", "5. 与原单位解除或终止劳动合同的证明。"),
    ],
)
def test_a_texts_word_for_the_questions_word_covers_it(term: str, text: str) -> None:
    assert term_coverage(term, text) == 1.0


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("工作日（周一至周五）为8:00至12:00、14:00至18:00。", True),
        ("在21:00至次日8:00期间电话催缴。", True),
        ("维保人员应在30分钟内到达现场。", False),
        ("本规定自2025年1月1日起施行。", False),
    ],
)
def test_a_range_of_hours_speaks_of_a_time_of_day(text: str, covered: bool) -> None:
    assert (term_coverage("晚上", text) == 1.0) is covered


@pytest.mark.parametrize(
    ("question", "used"), [("装修期间电梯能用吗", True), ("电梯能不能用", True), ("电梯坏了吗", False)]
)
def test_being_allowed_to_use_something_is_read_as_the_rules_使用(question: str, used: bool) -> None:
    assert ("使用" in [term.text for term in question_terms(question).terms]) is used


@pytest.mark.parametrize("question", ["门岗几班倒", "门岗是几班制"])
def test_how_many_shifts_is_read_as_the_rules_班制(question: str) -> None:
    assert "班制" in question_terms(question).required


@pytest.mark.parametrize(
    ("question", "act"),
    [
        ("业主装修要提前多久申请", {"申请", "提交", "报备", "登记"}),
        ("复盘要提前多久通知员工", {"通知", "告知"}),
        ("年假有几天", None),
    ],
)
def test_a_lead_time_is_asked_of_an_act(question: str, act: set[str] | None) -> None:
    assert lead_time_act(question) == (frozenset(act) if act is not None else None)


PROCUREMENT_HEADING = "零星采购管理办法\n六、零星采购中禁止哪些行为"
PROCUREMENT_BODY = "零星采购中以下行为严格禁止：\n3. 无发票采购，或以收据、白条代替发票报账。"


def test_报账_stands_for_报销_beside_a_more_specific_word_the_text_states() -> None:
    haystack = f"{PROCUREMENT_HEADING}\n{PROCUREMENT_BODY}"
    assert relevance(question_terms("拿收据能报销吗"), haystack, PROCUREMENT_HEADING).relevant


@pytest.mark.parametrize(
    "question",
    [
        "报销要什么材料",  # nothing more specific: the procurement rules' 报账 is not reimbursement
        "零星采购能走报销吗",  # the more specific word is what the rules are about, named by their heading
    ],
)
def test_报账_does_not_stand_for_报销_on_its_own(question: str) -> None:
    haystack = f"{PROCUREMENT_HEADING}\n零星采购报账时，应按月一并提交以下材料。"
    assert not relevance(question_terms(question), haystack, PROCUREMENT_HEADING).required_covered


@pytest.mark.parametrize(
    ("question", "measure"),
    [
        ("复盘时长多长", "时长"),
        ("岗前学习要多少学时", "学时"),
        ("复盘要多久", None),
        ("消防巡检的频次是多少", "频次"),
        ("投诉记录保存多久", "保存"),
        ("记录要保存多长时间", "保存"),
        ("投诉多久要回复", None),
    ],
)
def test_the_measure_a_quantity_question_names(question: str, measure: str | None) -> None:
    assert asked_measure(question) == measure


@pytest.mark.parametrize(
    ("question", "footage"), [("业主要看监控可以吗", True), ("能调监控吗", True), ("监控中心在哪", False)]
)
def test_looking_at_the_cameras_is_read_as_their_footage(question: str, footage: bool) -> None:
    assert ("录像" in question_terms(question).required) is footage


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("听说年假有20天是真的吗", "听说年假有几天是真的吗"),
        ("婚假是3天吗", "婚假是几天吗"),
        ("报销超过90天还能报吗", "报销超过90天还能报吗"),  # a condition, not a figure to check
        ("事假请3天要谁批", "事假请3天要谁批"),
    ],
)
def test_a_length_asked_to_be_confirmed_is_asked_for(question: str, asked: str) -> None:
    assert asked_in_place_of_confirmed(question) == asked


def test_matters_left_to_another_document_are_no_members_of_the_scope() -> None:
    scope = (
        "本补充规定适用于华府项目全部住宅的装修。装修押金3000元及其退还规则，仍按公司《装修管理规定》执行；"
        "施工时间、电梯使用和垃圾清运按本补充规定执行。"
    )
    kept = without_exclusions(scope)
    assert "退还" not in kept and "垃圾清运" in kept
    assert "退还规则" not in scope_members(kept)


@pytest.mark.parametrize("question", ["困人超过多久要打119", "困人多久要打119"])
def test_困人_alone_is_read_as_电梯困人(question: str) -> None:
    assert question_terms(question).required == ("电梯困人",)


@pytest.mark.parametrize("question", ["我被业主骂了怎么办", "被骂了要报告吗"])
def test_being_insulted_is_the_subject(question: str) -> None:
    assert question_terms(question).required == ("辱骂",)


@pytest.mark.parametrize(
    ("question", "claimed"),
    [("出租车票能报吗", True), ("白条能报吗", True), ("打车能报吗", True), ("超过30天还能报吗", False)],
)
def test_报_asked_of_a_cost_is_报销(question: str, claimed: bool) -> None:
    assert ("报销" in question_terms(question).required) is claimed


@pytest.mark.parametrize("question", ["新员工多久要复盘", "新来的同事要培训吗"])
def test_a_new_hire_is_read_as_the_rules_入职(question: str) -> None:
    assert "入职" in question_terms(question).required
