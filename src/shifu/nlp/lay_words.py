"""Word lists for reading questions: what a question asks with, and lay → statute wording.

The evidence gate uses them to decide relevance; the extractive composer uses LAY_SYNONYMS to
quote the sentence that speaks to the question in the document's words (周末 → 周六、周日).

QUESTION_WORDS and GENERIC_WORDS never name a question's subject (多少, 怎么, 公司, 员工), so
they are not required to appear in a fragment. LAY_SYNONYMS lets a question in everyday
words (辞职, 加班费) be covered by a fragment in statute words (解除劳动合同, 工资报酬); it
only ever widens how a term may be covered, it never makes a term optional.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    """Whitespace-separated words of a literal block."""
    return frozenset(text.split())


QUESTION_WORDS: frozenset[str] = _words(
    """
    多少 多久 多长 多长时间 多大 多高 几 几个 几天 几日 几次 几年 几月 几号 几点 几倍 几项 几成 几岁
    几小时 几个月 几个小时 多少天 多少钱 多少个 多少次 多少年 多少倍 多少岁 怎么 怎么样 怎样 怎么办
    如何 什么 为什么 哪些 哪个 哪种 哪里 哪儿 哪 谁 是否 能否 可否 有没有 是不是 能不能 要不要 会不会
    可不可以 吗 呢 吧 啊 呀 么 嘛 请问 问下 问一下 一下 想问 想知道 知道 告诉 还要 还是 或者 以及 需要
    需 要 得 应该 应当 必须 可以 可 能 能够 会 该 一般 通常 平时 具体 大概 左右 最长 最短 最多 最少 最低
    最高 至少 至多 以上 以下 以内 之内 不到 不满 超过 满 标准 规定 要求 情况 时候 时间 期间 问题 方面
    最晚 最早 最迟 最快 最慢
    一次 每次 一个 这个 那个 这种 那种 这样 那样 所有 归谁 怎么算 怎么办理 怎么处理 咋 咋办 的话 的 了
    怎么弄 咋弄 怎么搞 咋搞 怎么整 咋整 怎么做 咋做 怎么走 怎么申请 咋申请 怎么操作
    在 和 与 及 或 是 有 没有 不 没 也 都 就 还 又 再 才 给 被 把 对 向 从 到 由 按 为 于 以 之 其 该 此
    除了 之后 以后 之前 以前 后 前 内 中 里 上 下 现在 目前 如果 若 假如 因为 所以 但是 但 而 并 且
    要交 交到 交给 交去 送到 送给 时有 能领 能拿 要求 多少度 第几 几月份 月份 何时 何种 哪种 都有 都
    流程 步骤 程序 手续 环节 材料 资料 证明材料 期限 时限 额度 上限 下限 限额 标准 条件 规则 办法 要点
    单据 证件 做法 行为 内容 事项 东西 种类 类型 方式 方法 情形 阶段 注意事项 地点 日期 名称 名字 成绩 排名
    天数 时长 周期 频次 频率
    第一步 第二步 第三步 第几步 下一步 首先 最先 审批流程 办理流程 处理流程 规范
    百分之几 百分之多少 百分比 比例 几倍 多少倍 倍数 一共 总共 共有 一共有
    负有
    那 那么 那要 那就 那我 那还 那得
    啥 啥时候 为啥 干啥 啥样 要啥 有啥 是啥 干嘛 干什么 做啥 弄啥 咋样 先干嘛 先做什么
    不能 不可以 不许 不准 不让
    都行 都可以 都能 随便 随意 哪家 哪所 哪位
    """
)
"""Words that ask rather than name: never a subject term. The second group names the KIND of
claim asked for (流程, 材料, 期限 …): the slot's body check proves that, not the relevance gate."""

GENERIC_WORDS: frozenset[str] = _words(
    """
    公司 单位 员工 职工 人员 我们 我 你 他 她 他们 自己 本人 大家 别人 人家 法律 法规 制度 规定 条例 国家
    他家 她家 他们家 我家 你家 自家 别人家
    相关 有关 工作 上班 一般 问 请 办 做 搞 弄 算 用 交 拿 领 发 给 让 叫 去 来 想 说 看 找 打 下来 起来
    企业 用人单位 劳动者 我司 本公司 咱们 现在 今年 明年 去年 每月 每年 每天 每周 每个 每人
    待办 任务 本月 今天 明天 昨天 这周 本周 上周 下周 上个月 下个月 这个月
    之类 之类的 这类 那类 一类
    你好 您好 谢谢 多谢 感谢 收到 嗯嗯 哈哈 明白 辛苦 早上好 晚上好 晚安 再见 拜拜
    拿到 接到 得到 收到后 拿到后
    额外 另外 另需 还需
    版本 版
    就是 其实 只是 不是 意思是 我是说 说的是 没图 无图
    随便 随意 任意 无缘无故
    那天 这天 那一天 这一天
    顺便 顺带 另外问下 顺便问下 还想问
    听说 据说 听人说 听别人说 真的 是真的 真的吗
    """
)
"""Words too general to be the subject of a question on their own (courtesies, the words that correct an
earlier turn — 没图，就是电梯困人了 — and those that pass on hearsay — 听说年假有20天是真的吗 — name nothing
either)."""

_LOST = ("丢了", "弄丢", "丢失", "遗失")
_BROKEN = ("坏了", "损坏")
_DISPUTED = ("不同意", "不认可", "有异议", "不服")
_PAID_OUT = ("到账", "到帐", "打款", "回款")
_EXCEEDED = ("超了", "用完了")
_RELATIVES = (
    *("表哥", "表姐", "表弟", "表妹", "堂哥", "堂姐", "堂弟", "堂妹"),
    *("舅舅", "姑姑", "姨妈", "姐夫", "妹夫", "小舅子", "老婆", "老公", "媳妇"),
)
"""A relative by name (我表哥的店): policies and statutes say 亲属."""
_HARSH_WORDS = ("狠话", "重话", "难听的话", "脏话", "骂人", "吓唬")
"""What staff call threatening or abusive language (催费能说狠话吗); rules say 威胁、侮辱性语言."""

ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "春晚": ("春节联欢晚会",),
    "世锦赛": ("锦标赛",),
    "世乒赛": ("乒乓球锦标赛", "乒乓球团体锦标赛"),
    "二十大": ("第二十次全国代表大会",),
    "国考": ("公务员考试", "考试录用公务员"),
    "冬奥会": ("冬季奥运会", "冬季奥林匹克运动会"),
    "奥运会": ("奥林匹克运动会",),
    "亚运会": ("亚洲运动会",),
    "全运会": ("全国运动会",),
    "央视": ("中央电视台", "中央广播电视总台"),
}
"""Short names news and staff use for what documents spell out (春晚 ~ 春节联欢晚会, 国考 ~ 公务员考试)."""

SPELLINGS: tuple[frozenset[str], ...] = (frozenset({"消防栓", "消火栓"}),)
"""One thing spelled two ways (staff say 消防栓, the checklists 消火栓): interchangeable for the gate
and searched both ways. Unlike LAY_SYNONYMS they stay out of the segmenter's dictionary: both are
dictionary words already, and raising a word's frequency re-segments unrelated text."""

INTERCHANGEABLE: tuple[frozenset[str], ...] = (
    frozenset({"举办", "举行", "召开"}),
    frozenset({"考试", "测验", "测试"}),
    frozenset({"困住", "困人", "被困", "关人", "卡人", "困在", "关在", "关在电梯里"}),
    frozenset({"楼道", "楼梯间", "走廊"}),
    frozenset({"消防通道", "疏散通道", "安全出口"}),
    frozenset({"忘了", "忘记", "遗漏", "漏打", "缺卡"}),
    frozenset({"来不及", "赶不上", "无法按时", "不能按时", "无法及时", "不能及时"}),
    frozenset({"亲戚", "亲属", "家属", "亲友"}),
    frozenset({"店里", "商户", "商店", "门店", "店铺"}),
    frozenset({"晚上", "夜间", "夜里", "深夜"}),
    frozenset({"周末", "休息日", "双休日"}),
    frozenset({"摔伤", "受伤", "受到伤害", "事故伤害", "负伤"}),
    frozenset({"调查", "核查", "核实"}),
    frozenset({"开工", "施工", "动工"}),
    frozenset({"留到", "结转", "留用", "顺延到"}),
    frozenset({"禁忌", "禁止", "严禁", "红线"}),
    frozenset({"点名", "曝光", "公布"}),
    frozenset({"泄露", "泄漏", "外泄", "保密", "无关人员提供"}),
    frozenset({"夜班", "夜间"}),
    frozenset({"签字", "签批", "签名", "审批"}),
    frozenset({"没来", "没到", "未到岗", "没到岗", "没有到岗", "未按时到岗", "迟到"}),
    frozenset({"不好", "不满意", "不满"}),
    frozenset({"中午", "午休", "12:00", "12点"}),
    frozenset({"撬棍", "撬门", "撬开", "撬锁"}),
    frozenset({"出差", "差旅", "公出"}),
    frozenset({"打车", "出租车", "网约车", "交通费"}),
    *SPELLINGS,
    frozenset({"过期", "到期"}),
    frozenset({"换班", "交接班", "班次"}),
    frozenset({"不交", "不缴", "拒交", "未缴费", "未缴纳", "未交纳", "不交纳", "拒绝支付", "不支付"}),
    frozenset({"催费", "催缴", "催收"}),
    frozenset({"生病", "因病", "患病", "病假"}),
    frozenset({"不及格", "没及格", "低于60分", "不到60分"}),
    frozenset({"保安", "秩序维护员", "安保人员"}),
    frozenset({"请客", "请客吃饭", "请吃饭", "招待", "业务招待", "招待费"}),
    frozenset({"排班", "班制"}),
    frozenset({"离职证明", "解除或终止劳动合同的证明", "解除劳动合同的证明", "终止劳动合同的证明"}),
    frozenset({"欠费", "欠缴", "拖欠", "未缴费", "未缴纳", "未交纳", "逾期不交纳", "逾期不支付"}),
)
"""Words texts use for one another: a fragment saying 举行 speaks of a question's 举办. Read by the
evidence gate's relevance only; unlike LAY_SYNONYMS they never widen a search."""


TIMES_OF_DAY = frozenset(
    {"晚上", "夜间", "夜里", "深夜", "半夜", "凌晨", "早上", "清晨", "中午", "午休", "上午", "下午"}
)
_CLOCK = r"\d{1,2}\s*[:：]\s*\d{2}"
HOURS_RANGE = re.compile(rf"{_CLOCK}\s*(?:至|到|-|—|~|～)\s*(?:次日|第二天)?\s*{_CLOCK}")
"""装修能不能在晚上施工: a rule giving the hours (工作日为8:00至12:00、14:00至18:00) speaks of the evening
by the hours it leaves out, though it never says 晚上."""


def _others_in_group(word: str, groups: tuple[frozenset[str], ...]) -> frozenset[str]:
    """The other words of the first group holding `word` (empty when none does)."""
    return next((group - {word} for group in groups if word in group), frozenset())


def interchangeable(word: str) -> frozenset[str]:
    """The words a text may use instead of `word` (empty when it has none)."""
    return _others_in_group(word, INTERCHANGEABLE)


BESIDE_A_SUBJECT: tuple[frozenset[str], ...] = (frozenset({"报销", "报账"}),)
"""Words a text may use for one another only where it also names the question's more specific word.
拿收据能报销吗 is answered by 以收据、白条代替发票报账 (the receipt is what is asked), but 报销要什么材料 is
not answered by the procurement rules' 零星采购报账需提交的材料."""


def interchangeable_beside(word: str) -> frozenset[str]:
    """The words a text may use instead of `word` beside a more specific question word it names."""
    return _others_in_group(word, BESIDE_A_SUBJECT)


LAY_SYNONYMS: dict[str, tuple[str, ...]] = {
    **ABBREVIATIONS,
    "开幕式": ("开闭幕式",),
    "闭幕式": ("开闭幕式",),
    "销量": ("交付", "销售"),
    "震级": ("级地震",),
    "去世": ("离世", "逝世", "病逝"),
    "破产": ("倒闭",),
    "辞职": ("解除劳动合同", "解除"),
    "电梯门": ("轿厢门", "电梯"),
    "打不开": ("困人", "被困", "无法打开"),
    "关在电梯里": ("困人", "被困"),
    "卡在电梯里": ("困人", "被困"),
    "离职": ("解除劳动合同", "解除", "终止劳动合同"),
    "辞退": ("解除劳动合同", "解除"),
    "走人": ("解除劳动合同", "解除", "离职"),
    "打招呼": ("通知", "告知"),
    "按时": ("按期", "规定期限", "规定时限", "按前款规定"),
    "申报": ("申请", "申报", "报告"),
    "开除": ("解除劳动合同", "解除"),
    "炒鱿鱼": ("解除劳动合同",),
    "签合同": ("订立", "劳动合同"),
    "没签": ("未与劳动者订立", "未订立", "未签订", "不订立", "不签订"),
    "不签": ("未与劳动者订立", "未订立", "未签订", "不订立", "不签订"),
    "不给签": ("未与劳动者订立", "未订立", "未签订", "不订立", "不签订"),
    "合同": ("劳动合同", "合同"),
    "加班": ("延长工作时间", "加班"),
    "加班费": ("工资报酬", "加班"),
    "加班工资": ("工资报酬", "加班"),
    "给钱": ("工资报酬", "支付", "报酬"),
    "节假日": ("休假日", "节假日"),
    "工资": ("劳动报酬", "工资"),
    "工资待遇": ("工资收入", "工资", "劳动报酬"),
    "买来": ("采购", "购买", "购置"),
    "买个": ("采购", "购买", "购置"),
    "买点": ("采购", "购买", "购置"),
    "买些": ("采购", "购买", "购置"),
    "打车": ("市内交通", "出租车"),
    "摔伤": ("事故伤害", "受到伤害"),
    "车费": ("交通费", "车票"),
    "列进": ("列入", "纳入", "加入"),
    "休完": ("未休", "休假"),
    "折现": ("工资报酬", "折算", "支付"),
    "薪水": ("工资", "劳动报酬"),
    "年假": ("年休假",),
    "干活": ("施工", "作业", "工作"),
    "赔偿": ("经济补偿", "赔偿"),
    "补偿": ("经济补偿", "补偿"),
    "赔钱": ("经济补偿", "赔偿"),
    "社保": ("社会保险",),
    "五险": ("社会保险",),
    "怀孕": ("孕期", "怀孕"),
    "生孩子": ("生育", "产假"),
    "物业公司": ("物业服务人", "物业服务企业", "物业"),
    "小区": ("物业管理区域", "住宅", "小区"),
    "老板": ("用人单位",),
    "试用": ("试用期",),
    "打官司": ("诉讼", "起诉"),
    "告": ("起诉", "诉讼"),
    "招工": ("招用", "录用"),
    "告知": ("通知", "告知"),
    "自采": ("采购",),
    "小额": ("零星", "小额"),
    "走账": ("报销", "报账", "入账"),
    "补偿金": ("经济补偿",),
    "服务者": ("物业服务人", "物业服务企业"),
    "管理者": ("物业服务人", "物业服务企业", "管理人"),
    "拒交": ("不支付", "拒绝支付", "不交纳", "拒绝交纳"),
    "不交": ("欠费", "欠缴", "未缴", "未交", "拒交", "不支付", "拒绝支付", "不交纳", "催缴"),
    "打电话": ("电话", "致电"),
    "拒付": ("不支付", "拒绝支付", "不交纳"),
    "续签": ("续订",),
    "组员": ("组员", "员工", "成员"),
    "培训": ("培训", "学习", "训练"),
    "催费": ("催缴", "催收", "催费"),
    "催款": ("催缴", "催收"),
    "救人": ("救人", "救援", "解救", "救出"),
    "交齐": ("提交", "交齐", "补齐", "补交", "交清"),
    "周末": ("周末", "周六", "周日", "星期六", "星期日", "双休日"),
    "审批": ("审批", "审核", "批准", "核准", "签批", "签字"),
    "回复": ("回复", "答复", "回应", "联系", "响应"),
    "签订": ("订立", "签订"),
    "签": ("订立",),
    "交纳": ("交纳", "缴纳", "支付"),
    "缴纳": ("交纳", "缴纳", "支付"),
    "年龄": ("周岁",),
    "停水": ("供水",),
    "停电": ("供电",),
    "停气": ("供燃气", "供气"),
    "上班": ("工作时间",),
    "消防通道": ("疏散通道", "消防车通道", "安全出口"),
    "消防巡查": ("消防巡检", "消防巡查"),
    "消防巡检": ("消防巡查", "消防巡检"),
    "下班": ("工作时间",),
    **dict.fromkeys(_LOST, ("丢失", "遗失", "灭失", "丢了")),
    **dict.fromkeys(_BROKEN, ("损坏", "故障", "坏了")),
    **dict.fromkeys(_DISPUTED, ("异议", "不服", "不同意", "不认可", "申诉", "复核")),
    **dict.fromkeys(_PAID_OUT, ("到账", "转入", "转账", "打款", "汇款")),
    **dict.fromkeys(_EXCEEDED, ("超过", "超出", "用完", "超支", "超标")),
    **dict.fromkeys(_RELATIVES, ("亲属", "近亲属", "亲戚")),
    **dict.fromkeys(("上班路上", "下班路上", "上下班路上", "通勤"), ("上下班途中",)),
    **dict.fromkeys(("车祸", "出车祸", "撞车", "被车撞"), ("交通事故",)),
    "名单": ("名单", "名册", "姓名"),
    **dict.fromkeys(("医药费", "看病的钱", "治疗费"), ("治疗工伤所需费用", "医疗费", "医疗费用")),
    **dict.fromkeys(_HARSH_WORDS, ("威胁", "侮辱", "恐吓", "辱骂")),
}
"""Lay word → statute words that cover it (any one is enough).

The last rows name a situation ("发票丢了怎么办", "多久能到账"): a section about the subject that
never speaks of the situation does not answer it, so the situation word must be covered like any
other term."""

_STEPS_TAKEN = (
    *("申请", "提前", "提交", "办理", "完成", "处理", "办好", "办完", "做完", "弄好"),
    *("签字", "审批", "批准", "审核"),
)
_FORGOTTEN = ("忘了", "忘记")
_ARRIVED = ("到场", "赶到", "到现场")
_RETURNED = ("退还", "退回")
SITUATION_WORDS: frozenset[str] = frozenset(
    (*_LOST, *_BROKEN, *_DISPUTED, *_PAID_OUT, *_EXCEEDED, *_STEPS_TAKEN, *_FORGOTTEN, *_ARRIVED, *_RETURNED)
)
"""Words that say what happened to something or what is done with it, not what it is: "多久能到账",
"丢了怎么办", "要提前几天申请", "要多久完成" or "多久到场" alone still names no subject (到账 of what?),
so the conversation lends one or asks back."""

MISHAP_WORDS: frozenset[str] = frozenset((*_LOST, *_BROKEN, *_EXCEEDED, "逾期"))
"""What happened to a thing (额度用完了, 材料丢了): the word before one names the thing, even a word that
otherwise only says what is asked (额度 of 报销额度是多少, 材料 of 要什么材料)."""

TOPIC_WORDS: frozenset[str] = _words(
    """
    报销 采购 装修 电梯 消防 投诉 请假 催缴 催费 物业费 押金 巡检 巡查 复盘 训练 练习 待办 工单 门岗 交接班
    保洁 绿化 维修 报修 停车 门禁 考勤 加班 工资 社保 合同 入职 面试 体检 培训 发票 审批 回访 值班 隐患
    困人 维保 施工 业主 项目 主管 经理 排班 打卡 迟到 病假 事假 婚假 产假 年假 丧假 调休 离职 转正 试用期
    """
)
"""The company's topic words: what a homophone typo is read as (报消 → 报销, `nlp.homophones`)."""

PROCEDURE_TOPICS: frozenset[str] = _words(
    """
    报销 采购 零星采购 装修 请假 催缴 催费 投诉 巡检 巡查 消防巡检 复盘 入职 面试 体检 加班 调休 离职 转正
    报修 维修 交接班 回访 培训 训练
    """
)
"""Matters each with a procedure of its own: 那采购呢 after 报销流程 asks 采购流程 (发票 after 报销
narrows the question instead: an invoice has no procedure of its own, it belongs to one)."""

DOMAIN_WORDS: frozenset[str] = _words(
    """
    年假 年休假 婚假 产假 丧假 病假 事假 陪产假 哺乳假 探亲假 调休 补休 年会 加班费 加班工资 试用期 工伤 工龄
    经济补偿 赔偿金 违约金 竞业限制 劳务派遣 非全日制 社保 公积金 物业费 停车费 装修押金 出入证 零星采购
    费用报销 报账 差旅费 电梯困人 消防巡查 消防巡检 业主投诉 催缴 门岗 交接班 复盘 待复盘 候选人
    记录表 登记表 申请表 审批单 事件报告 交接记录 巡检记录 入职 入职资料 岗前学习 录用通知
    工程维修岗 维修岗 保洁岗 秩序岗 安保岗 客服岗 绿化岗 餐饮岗 管家岗
    """
)
"""Domain words the general jieba dictionary lacks (年假, 年会): segmented whole, never split."""


ROLE_ACTS: dict[str, tuple[str, ...]] = {
    "得主": ("获得", "夺得", "摘得", "取得", "包揽"),
    "获得者": ("获得", "夺得", "摘得", "取得"),
    "冠军": ("夺冠", "夺得", "折桂"),
    "导演": ("执导",),
    "主演": ("饰演", "出演", "领衔", "饰）", "饰)"),
    "新任": ("当选", "就任", "出任"),
    "审批人": ("审批",),
    "负责人": ("负责",),
}
"""A role a text states as the act that fills it: 金牌得主 ~ 获得金牌, 导演 ~ 执导, 审批人 ~ 由…审批.

A question names the role (谁是审批人); the text names the act (由项目经理审批). Only the role
ending of a term is read this way, and the rest of the term must still be covered (金牌).
"""


def words_for(word: str) -> frozenset[str]:
    """A question word with the words a text may use for it: its lay synonyms and interchangeable words
    (加班费 ~ 工资报酬, 留到 ~ 结转)."""
    return frozenset({word, *LAY_SYNONYMS.get(word, ()), *interchangeable(word)})


def statute_words(text: str) -> tuple[str, ...]:
    """The document words the lay words of `text` stand for (加班费怎么算 → 工资报酬, 加班).

    For the keyword leg of a search: staff ask 加班费, the statute says 工资报酬. Single-character
    lay words (告) are left out, being inside too many other words (报告, 公告).
    """
    found = [word for lay, words in LAY_SYNONYMS.items() if len(lay) > 1 and lay in text for word in words]
    found += [
        word for group in SPELLINGS if any(spelling in text for spelling in group) for word in sorted(group)
    ]
    return tuple(dict.fromkeys(found))
