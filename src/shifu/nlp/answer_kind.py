"""What kind of answer a question asks for, and whether a sentence states one.

谁 asks for a person or a role, 在哪 for a place, 什么时候 for a date or time, 多少 for a
number, 叫什么 for a name. A sentence that states nothing of that kind cannot answer the
question, however much of its wording it shares: "开幕式于2月4日举行" does not say who
directed the ceremony. The evidence gate uses this as part of the body check (seed 000,
condition 3) and the extractive composer uses it to quote the sentence that answers.

Spans already present in the question never count as an answer (the 2021 of "2021年…
是多少" is not the number asked for). Everything is deterministic pattern matching plus
the part-of-speech names of `nlp.names`.
"""

from __future__ import annotations

import re
from enum import StrEnum

from shifu.nlp.counting import counted_unit, counts, lists_what_is_counted
from shifu.nlp.instances import question_years, year_mentions
from shifu.nlp.names import NameKind, proper_names
from shifu.nlp.units import CN_NUMERALS, MEASURE_UNITS


class AnswerKind(StrEnum):
    """The kind of span that answers a question."""

    PERSON = "PERSON"
    PLACE = "PLACE"
    DATE = "DATE"
    NUMBER = "NUMBER"
    NAME = "NAME"
    RESULT = "RESULT"


_ROLE_NOUNS = (
    r"导演|主演|编剧|作者|得主|获得者|获奖者|冠军得主|主席|总统|首相|总理|董事长|首席执行官|CEO|教练|"
    r"发言人|主持人|代言人|负责人|创始人|审批人|联系人|经办人|主角|配角|金牌|银牌|铜牌"
)
_PEOPLE = r"选手|球员|演员|嘉宾|成员|获奖者"
LISTS_PEOPLE = re.compile(
    rf"(?:{_ROLE_NOUNS}|{_PEOPLE})\s*都?\s*(?:有哪些|是哪些|有谁|是谁)|哪些[^，。？?]{{0,8}}(?:{_PEOPLE})"
)
"""主演有哪些, 哪些选手被禁赛: a list of people is still people (哪些人可以申请 asks who is eligible)."""
_ASKED: tuple[tuple[AnswerKind, re.Pattern[str]], ...] = (
    (AnswerKind.PERSON, re.compile(rf"是谁|谁|哪位|什么人|(?:{_ROLE_NOUNS})\s*[？?]?\s*$")),
    (
        AnswerKind.PLACE,
        re.compile(
            r"在哪(?!些)|去哪(?!些)|到哪(?!些)|哪里|哪儿|何地|何处|什么地方|地点|举办地|所在地|发源地|起点|终点|首站|"
            r"哪个城市|哪座城市|哪个国家|哪个省|哪个地方|举办国|主办国|东道主|研发国家?\s*[？?]?\s*$"
        ),
    ),
    (AnswerKind.NUMBER, re.compile(r"多长时间|多久|多少时间")),
    (
        AnswerKind.DATE,
        re.compile(
            r"什么时候|何时|哪天|哪一天|几号|几月|几点|哪年|哪一年|什么时间|日期|时间\s*[？?]?\s*$|"
            r"(?:开幕|闭幕|发射|上映|开售|举办|举行|开始|截止|发布)时间"
        ),
    ),
    (
        AnswerKind.NUMBER,
        re.compile(
            r"多少|几[个人天次年岁倍名家件位项所辆架艘座条份成]|多大|多高|多长|多重|"
            r"人数|人次|数量|总量|产量|销量|交付量|吞吐量|发送量|规模|增速|增幅|涨幅|降幅|"
            r"比例|占比|票房|金额|奖金|价格|震级|名次|市值|营收|[量数率额]\s*[？?]?\s*$"
        ),
    ),
    (
        AnswerKind.NAME,
        re.compile(
            r"叫什么|名字|名称|全称|主题|口号|哪家|哪支|哪部|哪款|哪个|冠军|亚军|季军|四强|八强|队伍|对手|多数党|"
            r"什么品牌|型号|吉祥物|年度(?:词汇|汉字|热词|字)|最佳[^\s是为有什么吗呢啥？?]{1,6}\s*[？?]?\s*$"
        ),
    ),
    (AnswerKind.RESULT, re.compile(r"成绩|排名|战绩|第几名")),
)

_CALENDAR_DATE = (
    r"(?:19|20)\d{2}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)?|(?<!\d)\d{1,2}\s*月\s*\d{1,2}\s*[日号]"
)
"""A year (with its month and day) or a month and day: never a count, always a date."""
_YEAR_OR_DATE = re.compile(_CALENDAR_DATE)
_NUMBER = re.compile(
    rf"(?<![\d.A-Za-z])\d+(?:[.,]\d+)*\s*(?:%|％|‰|(?:万亿|亿|万|千|百)?\s*(?:{MEASURE_UNITS})?)|百分之[{CN_NUMERALS}点]+|"
    rf"(?<![这那哪每])[零〇一二两三四五六七八九十][{CN_NUMERALS}]*\s*(?:{MEASURE_UNITS})"
)
_DATE = re.compile(
    rf"{_CALENDAR_DATE}|"
    rf"(?<!\d)\d{{1,2}}\s*月(?:份|初|中旬|上旬|下旬|底)?|[一二三四五六七八九十]{{1,3}}月[一二三四五六七八九十]{{0,3}}[日号]?|"
    rf"(?<!\d)\d{{1,2}}\s*[日号]|(?<!\d)\d{{1,2}}\s*[:：]\s*\d{{2}}|[上下]午|凌晨|傍晚|周[一二三四五六日]|星期[一二三四五六日天]|"
    rf"春节|元旦|除夕|国庆|中秋|端午|清明|"
    rf"(?:\d+|[{CN_NUMERALS}]+)\s*(?:个)?\s*(?:工作日|天|日|周|个月|小时)\s*(?:内|前|后|以内|之内)"
)
_ROLE = re.compile(
    r"[\u4e00-\u9fff]{0,6}(?:经理|主管|主任|负责人|专员|管家|班长|队长|组长|领导|总监|部门|中心|"
    r"办公室|人员|客服|前台|保安|财务|人事|行政|(?<!团)队|俱乐部|"
    r"(?:仓管|值班|秩序维护|保洁|维修|巡检|安全|收银|管理)员|出纳|"
    r"(?:工程|财务|人力资源|采购|安全管理|秩序维护|客服)部)"
)
_PLACE_WORDS = re.compile(
    r"[\u4e00-\u9fff]{2,8}(?:省|市|区|县|镇|乡|村|街道|(?<![网线思出铁公马道套])路|街|号楼|楼|层|室)|"
    r"[\u4e00-\u9fff]{1,8}(?:大厦|广场|中心|大厅|窗口|"
    r"前台|机场|车站|火车站|港|体育场|体育馆|会展中心|国家会议中心|酒店|公园|岛|湾)"
)
_INSTITUTIONS = r"医院|诊所|卫生院|体检机构|机构|银行|网点|营业厅"
_ASKS_WHICH_INSTITUTION = re.compile(
    rf"(?:哪家|哪所|哪个|哪些|什么)(?:{_INSTITUTIONS})|(?:在|去|到)哪(?:里|儿)?(?:做|办|办理|看|查|检查|体检)"
)
"""去哪家医院体检 asks for a kind of institution, which a rule names by its class (二级以上医院); so does
体检在哪做 (where a service is had, not where an event is held)."""
_INSTITUTION = re.compile(rf"[\u4e00-\u9fff]{{1,8}}(?:{_INSTITUTIONS})")
_RESULT = re.compile(
    rf"冠军|亚军|季军|殿军|第[\d{CN_NUMERALS}]+名|[\d{CN_NUMERALS}]+强|小组第[\d{CN_NUMERALS}]+|出局|淘汰|晋级|夺冠|止步|"
    rf"(?:排名|位列|名列|居)第?[\d{CN_NUMERALS}]+|"
    r"(?<![\d.])\d{1,2}\s*[:：比-]\s*\d{1,2}(?![\d.])"
)
"""亚军, 第三名, 八强, 小组出局, 2比1: how a team or player finished."""
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_LATIN_WORD = re.compile(r"[a-z]{2,}")


_COUNTS_PEOPLE = re.compile(r"几\s*[个位名块枚人]|多少")
"""几块金牌, 有几位主演: a count of the role, not who holds it."""
_HOW_TO = re.compile(r"怎么|怎样|如何|咋")
_WHICH_PREVAILS = r"(?:以|按|听|依)(?:哪个|哪份|谁)(?:的)?(?:为准|执行|算|来|办)?|哪个优先"
_HOW = re.compile(rf"{_HOW_TO.pattern}|哪些|{_WHICH_PREVAILS}")
"""How-to and list questions ask for a procedure or an enumeration, not one span; 以哪个为准 asks which
rule prevails, which a rule states (与公司规定不一致…的，以本补充规定为准), not a name."""


def answer_kind(question: str) -> AnswerKind | None:
    """The kind of answer `question` asks for, or None when it asks for no particular kind."""
    asked = asking(question)
    return None if asked is None else asked[0]


def asking(question: str) -> tuple[AnswerKind, re.Match[str]] | None:
    """The kind of answer `question` asks for and the words that ask it (是谁, 吞吐量, 开幕时间)."""
    listing = LISTS_PEOPLE.search(question)
    if listing and not _HOW_TO.search(question):
        return AnswerKind.PERSON, listing
    if _HOW.search(question):
        return None
    for kind, pattern in _ASKED:
        match = pattern.search(question)
        if match:
            if kind is AnswerKind.PERSON and "谁" not in question and _COUNTS_PEOPLE.search(question):
                return AnswerKind.NUMBER, match
            return kind, match
    return None


def _is_new(span: str, question: str) -> bool:
    """A span the question does not already state (its digits are not all the question's own,
    or it names something beside them: COMAC919 is new to "C919的全称是什么").

    Case does not matter: "小米Mix4" is what "小米MIX4的处理器是什么" already states.
    """
    compact = re.sub(r"\s+", "", span).lower()
    asking = question.lower()
    if compact in asking:
        return False
    digits = _DIGITS.findall(compact)
    asked = set(_DIGITS.findall(question))
    if not digits or not all(digit in asked for digit in digits):
        return True
    return any(word not in asking for word in _LATIN_WORD.findall(compact))


_NOT_A_QUANTITY = re.compile(
    r"(?:电话|热线|拨打|致电|手机|传真|编号|邮编|工号|单号|号码)\s*[:：]?\s*[\d-]{3,}|"
    r"〔\s*(?:19|20)\d{2}\s*〕\s*\d+\s*号|\[\s*(?:19|20)\d{2}\s*\]\s*\d+\s*号|"
    r"(?:^|(?<=[\s：:。；;，,）)]))\d{1,2}\s*[、.．](?!\d)|"
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2},\s*\d{4}|"
    r"\d+\s+(?:days?|hours?|minutes?|weeks?|months?|years?)\s+ago"
)
"""拨打电话12580, 渝医保发〔2023〕2号, the 1、 of a numbered list, Jun 17, 2023, 7 days ago: digits that
neither count nor date what a question asks about."""
_IS_A_CODE = re.compile(r"0\d+|\d{7,}|(?:19|20)\d{2}")
"""03 (合同段), 17055554, a bare 2006: a code, a phone number or a year, not a count (no unit follows)."""
_CUT_OFF = re.compile(r"截至|截止")
_AS_OF = re.compile(rf"(?:截至|截止)(?:到|至)?\s*(?:(?:{_CALENDAR_DATE})|\d{{1,2}}\s*月)[^，,。；;]*")
"""截至11月23日14:11, 股价…: the date a figure is counted to, not when the asked event happens
(unless the question asks for the cut-off itself)."""
_CALENDAR_POINT = re.compile(
    r"(?<![\d个.])\d{1,2}\s*月(?:份|初|中|底|末|[上中下]旬|中下旬|中上旬)?|"
    r"(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2}(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?|(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)"
)
"""10月, 3月份, 2022-01-11 18:43:00: a point in the calendar or the day, never a count (3个月 is a length)."""


def _outside(spans: list[tuple[int, int]], start: int) -> bool:
    return not any(begin <= start < end for begin, end in spans)


def _candidates(kind: AnswerKind, sentence: str, question: str) -> list[str]:
    if kind in (AnswerKind.NUMBER, AnswerKind.DATE):
        labels = [match.span() for match in _NOT_A_QUANTITY.finditer(sentence)]
        if kind is AnswerKind.DATE:
            if not _CUT_OFF.search(question):
                labels += [match.span() for match in _AS_OF.finditer(sentence)]
            return [match.group(0) for match in _DATE.finditer(sentence) if _outside(labels, match.start())]
        dated = labels + [
            match.span()
            for pattern in (_YEAR_OR_DATE, _CALENDAR_POINT)
            for match in pattern.finditer(sentence)
        ]
        return [
            match.group(0)
            for match in _NUMBER.finditer(sentence)
            if _outside(dated, match.start())
            and not _IS_A_CODE.fullmatch(match.group(0).strip())
            and not (
                sentence[: match.start()].endswith("第") and not _A_LENGTH_OF_TIME.search(match.group(0))
            )
        ]
    if kind is AnswerKind.RESULT:
        return [match.group(0) for match in _RESULT.finditer(sentence)]
    if kind is AnswerKind.PERSON and _ASKS_WHO_PAYS.search(question):
        return [match.group(1) for match in _PAID_BY.finditer(sentence)]
    if kind in (AnswerKind.PERSON, AnswerKind.PLACE) and _ASKS_WHO_RECEIVES.search(question):
        recipients = (match.group(1) for match in _HANDED_TO.finditer(sentence))
        return [found for recipient in recipients for found in _candidates(kind, recipient, "")]
    names = proper_names(sentence)
    if kind is AnswerKind.PERSON:
        people = [text for name, text in names if name is NameKind.PERSON]
        return people + [match.group(0) for match in _ROLE.finditer(sentence)]
    if kind is AnswerKind.PLACE:
        places = [text for name, text in names if name in (NameKind.PLACE, NameKind.ORGANISATION)]
        places += [_LEADING_CLAUSE.sub("", match.group(0)) for match in _PLACE_WORDS.finditer(sentence)]
        if _ASKS_WHERE_IT_HAPPENS.search(question):
            return [place for place in places if _in_a_locative_frame(place, sentence)]
        if _ASKS_WHERE_MONEY_GOES.search(question):
            return [match.group(0) for match in _ACCOUNT.finditer(sentence)]
        if _ASKS_WHICH_INSTITUTION.search(question):
            places += [_LEADING_CLAUSE.sub("", match.group(0)) for match in _INSTITUTION.finditer(sentence)]
        return places
    if _ASKS_A_LABEL.search(question):
        return [match.group(0) for match in _LABEL.finditer(sentence)]
    return [text for _, text in names]


_ASKS_A_LABEL = re.compile(r"吉祥物|主题|口号|名字|名称|全称|叫什么|昵称|称号|年度(?:词汇|汉字|热词|字)")
"""A label is quoted or given (吉祥物为“兔圆圆”, 主题是“开放合作”), not any proper noun nearby."""
_LABEL = re.compile(
    r"“[^”\n]{1,30}”|《[^》\n]{1,40}》|「[^」\n]{1,30}」|[A-Za-z][A-Za-z0-9’'\-. ]{1,30}|"
    r"(?:叫|名为|称为|命名为|取名为?|简称|全称为?|全称是)[\u4e00-\u9fff]{2,12}"
)
_ASKS_WHO_RECEIVES = re.compile(r"(?:交|送|寄|递)(?:到|给|去|至)(?:哪|谁|什么|哪个|哪位)")
_HANDED_TO = re.compile(r"(?:提交|送交|上交|交|送|寄|递)(?:给|到|至)?([^，,。；;：:]{2,14})")
"""发票原件交到哪里 / 交给谁 asks who receives the paper: the role or place after the hand-in verb
(交项目财务或财务部), not any department the sentence names (须提交以下材料，材料不全的，财务部退回补齐)."""
_ASKS_WHO_PAYS = re.compile(
    r"(?:费|钱|款|金)[^，,。？?]{0,4}(?:由)?谁(?:来)?(?:出|付|支付|承担|负担|掏|报销)|"
    r"谁(?:来)?(?:出|付|支付|承担|负担|掏)[^，,。？?]{0,3}(?:费|钱|款|金)"
)
_PAID_BY = re.compile(r"(?:由|从)([^，,。；;：:]{2,14}?)中?(?:支付|承担|负担|列支|出资|垫付|报销)")
"""医药费谁出 asks who pays: the payer in a paying frame (从工伤保险基金支付, 由用人单位支付), which is
neither a person's name nor a role noun."""
_ASKS_WHERE_MONEY_GOES = re.compile(r"(?:打|转|汇|退|存|返|发)(?:到|进|入|至)(?:哪|什么)")
"""报销款打到哪里 asks for the account money goes to (转入报销人的工资卡), which is no place on a map."""
_ACCOUNT = re.compile(r"[\u4e00-\u9fff]{0,6}(?:银行卡|工资卡|卡|账户|帐户|账号|帐号)")
_LEADING_CLAUSE = re.compile(r"^.*(?:在|位于|于|到|赴)(?=[\u4e00-\u9fff]{2})")
"""地点在莫斯科工会大厦 → 莫斯科工会大厦: a place word's match may start with the words that lead to it."""
_ASKS_WHERE_IT_HAPPENS = re.compile(
    r"(?:在哪|哪里|何地|何处|哪个城市|哪座城市).{0,3}(?:举行|举办|召开|开幕|开展|进行)|举办地|举行地|"
    r"(?:举行|举办|召开)的?(?:地点|城市)"
)
"""在哪举办 and 举办的地点 ask where an event takes place: a place named for something else does not
answer it."""
_LOCATIVE_BEFORE = re.compile(
    r"(?:在|于|到|赴|至|从|往|抵达|位于|落户|来自|飞往|前往|移师|定在|选在|落地)\s*$"
)
_LOCATIVE_AFTER = re.compile(
    r"^\s*(?:举行|举办|召开|开幕|开展|进行|站|峰会|落地|启动|出发|开始|首发|主办|承办)"
)


def _in_a_locative_frame(place: str, sentence: str) -> bool:
    """True when a place name is where something happens (在乌镇举行, 移师巴黎, 乌镇峰会), not an attribute
    of something else (奥地利《新闻报》指出, 前苏联首任总统)."""
    for match in re.finditer(re.escape(place), sentence):
        before, after = sentence[max(0, match.start() - 4) : match.start()], sentence[match.end() :]
        if _LOCATIVE_BEFORE.search(before) or _LOCATIVE_AFTER.match(after):
            return True
    return False


_ONLY_A_YEAR = re.compile(r"(?:19|20)\d{2}\s*年")
_PERCENT = re.compile(r"[%％‰]|百分之")
_ASKS_A_RATE = re.compile(
    r"率|增长|增速|增幅|涨幅|降幅|下降|减少|上涨|下跌|占比|比例|比重|百分|同比|环比|份额|几成"
)
_ASKS_A_PERCENTAGE = re.compile(r"(?<![汇频功效])率")
"""出生率, 增长率, 收缴率: a share, answered by a percentage (汇率 and 频率 are not shares)."""
_PERCENTAGE_POINTS = re.compile(r"百分点|成$")
_ASKS_A_TOTAL = re.compile(r"[销产总]量|[交付吞吐发送]+量|人数|数量|票房|营收|总额|规模")
"""A total or a count: 销量是多少 is not answered by 占全球销量的34% (加班费是多少 may be a percentage)."""


_ASKS_A_MEASURED_TOTAL = re.compile(r"[销产]量|[交付吞吐发送]+量|票房|营收|总额")
_IN_GENERIC_UNITS = re.compile(r"个\s*$")
"""年旅客吞吐量1000万人次以上的机场有27个: a total of output or sales is measured (万辆, 万吨, 亿元), so a
number of 个 counts something else."""
_A_LENGTH_OF_TIME = re.compile(r"(?:个\s*)?(?:年|天|日|月|周|小时|分钟|周岁|岁)\s*$")
"""3天, 近4年, 18周岁: a length of time or an age, never a total (票房, 销量, 人数)."""


_TIME_OF_DAY = re.compile(r"[上下]午|凌晨|傍晚")
_ASKS_AN_HOUR = re.compile(r"几点|时刻|上午|下午|早上|晚上|白天")
"""今日下午 says when in a day, not which day: it answers 几点 / 上午还是下午, not 什么时候终止运营."""
_ASKS_A_CLOCK_TIME = re.compile(r"几点")
_CLOCK_TIME = re.compile(r"\d{1,2}\s*[:：]\s*\d{2}|[上下]午|凌晨|傍晚|点")
"""几点能施工 asks for a time of day (8:00, 下午两点), never a day count (90日) or a deadline
(3个工作日内)."""
_ASKS_A_DAY = re.compile(r"几号|哪天|哪一天|几月几")
_WITHIN = re.compile(r"(?:工作日|天|日|周|个月|小时)\s*(?:内|前|后|以内|之内)$")
"""几号发 asks for a day of the month: 一个月内 / 30日内 is a time limit, not a day."""


def asks_a_day(question: str) -> bool:
    """True when the question asks for a day (几号发, 哪天开始): a time limit does not answer it."""
    return _ASKS_A_DAY.search(question) is not None


_ASKS_A_SUM = re.compile(r"罚(?:款|钱)?(?:多少|几)")
_IN_MONEY = re.compile(r"元|块|[万亿]|美元|欧元|英镑|日元|港币|%|倍")


def _fits(kind: AnswerKind, span: str, question: str) -> bool:
    """A span of the right shape for this question, beyond being of the asked kind.

    A time limit (一个月内) does not answer 几号 / 哪天. When the question names its year, a bare year
    answers neither 什么时候 (the day is asked)
    nor anything else; a question about a total or a count is not answered by a percentage
    unless it asks for a rate or a change (销量增长了多少), nor by a length of time or an age. A
    fine (罚多少) is a sum of money, never 90日 (a compensation may be 27个月的本人工资).
    """
    if kind is AnswerKind.DATE:
        if asks_a_day(question) and _WITHIN.search(span):
            return False
        if _TIME_OF_DAY.fullmatch(span.strip()) and not _ASKS_AN_HOUR.search(question):
            return False
        if _ASKS_A_CLOCK_TIME.search(question) and not _CLOCK_TIME.search(span):
            return False
        return not (_ONLY_A_YEAR.fullmatch(span.strip()) and question_years(question))
    if kind is AnswerKind.NUMBER and _ASKS_A_SUM.search(question) and not _IN_MONEY.search(span):
        return False
    if kind is AnswerKind.NUMBER and _ASKS_A_PERCENTAGE.search(question):
        return _PERCENT.search(span) is not None or _PERCENTAGE_POINTS.search(span) is not None
    if kind is AnswerKind.NUMBER and _ASKS_A_TOTAL.search(question):
        if _PERCENT.search(span):
            return _ASKS_A_RATE.search(question) is not None
        if _ASKS_A_MEASURED_TOTAL.search(question) and _IN_GENERIC_UNITS.search(span):
            return False
        return not _A_LENGTH_OF_TIME.search(span)
    return True


_POINTED_AT = re.compile(r"“[^”]{12,}”")
"""A whole sentence quoted in the question: the earlier answer's item the user points at (第二步是谁签字
→ “项目经理确认…签字同意。”是谁签字), whose words are asked about, not already known."""


def answer_spans(kind: AnswerKind, sentence: str, question: str) -> list[str]:
    """Spans of `sentence` that could answer a question of `kind` (not ones the question states).

    A count question (几个阶段, 几天) is answered only by a number of the thing it counts, and a question
    about what is paid out (赔多少) is not answered by a fine (处二千元以上罚款), nor the reverse.
    """
    if kind is AnswerKind.NUMBER and _another_purpose_of_money(sentence, question):
        return []
    stated = _POINTED_AT.sub("“”", question)
    spans = [
        span
        for span in _candidates(kind, sentence, question)
        if _is_new(span, stated) and _fits(kind, span, question)
    ]
    if kind is AnswerKind.NUMBER:
        spans = [span for span in spans if not _counted_for_another_time(span, sentence, question)]
        if _ASKS_A_PAYOUT.search(question):
            spans = [span for span in spans if not _a_time_limit(span, sentence)]
        if not _ASKS_A_TARGET_OR_BOUND.search(question):
            spans = [span for span in spans if not _only_a_target_or_bound(span, sentence)]
    counted = counted_unit(question) if kind is AnswerKind.NUMBER else None
    if counted is None:
        return spans
    return [span for span in spans if counts(span, sentence, counted)]


_PAID_OUT = re.compile(r"赔|补偿|补助|抚恤|津贴|待遇")
_ASKS_A_PAYOUT = re.compile(r"(?:赔|补偿|补助)(?:偿|钱|金|款)?(?:多少|几)")
_TIME_LIMIT_AFTER = re.compile(r"\s*(?:个\s*)?(?P<unit>工作日|年|天|日|月|周|小时|分钟)?\s*(?:内|以内|之内)")


def _a_time_limit(span: str, sentence: str) -> bool:
    """True when every mention of the span is a time limit (30日内提出申请): 赔多少 asks for a sum,
    which 27个月的本人工资 states and 30日内 does not."""
    ends = [match.end() for match in re.finditer(re.escape(span), sentence)]
    limits = [_TIME_LIMIT_AFTER.match(sentence, end) for end in ends]
    return bool(ends) and all(
        limit is not None and bool(limit.group("unit") or _A_LENGTH_OF_TIME.search(span)) for limit in limits
    )


_FINED = re.compile(r"罚")


def _another_purpose_of_money(sentence: str, question: str) -> bool:
    """True when the question asks what is paid to someone and the sentence states only a fine, or the
    question asks for a fine and the sentence states only what is paid out (工伤了公司要赔多少 vs
    第六十三条 …处2000元以上2万元以下的罚款)."""
    if _PAID_OUT.search(question) and not _FINED.search(question):
        return bool(_FINED.search(sentence)) and not _PAID_OUT.search(sentence)
    if _FINED.search(question) and not _PAID_OUT.search(question):
        return bool(_PAID_OUT.search(sentence)) and not _FINED.search(sentence)
    return False


_TARGET_BEFORE = re.compile(r"(?:预计|计划|目标|有望|力争|预期|需要超过|需超过|或将)\s*$")
_BOUND_AFTER = re.compile(r"^\s*(?:以上|以下|以内|及以上|及以下)的")
_ASKS_A_TARGET_OR_BOUND = re.compile(r"预计|计划|目标|预期|有望|以上|以下|以内|超过|不超过|上限|下限|门槛|起")


def _only_a_target_or_bound(span: str, sentence: str) -> bool:
    """True when every mention of `span` is a target (需要超过140万辆, 预计将达) or a bound that
    qualifies something else (1000万人次以上的机场): neither is the figure asked for, unless the
    question asks for a plan or a threshold."""
    starts = [match.start() for match in re.finditer(re.escape(span), sentence)]
    return bool(starts) and all(
        _TARGET_BEFORE.search(sentence[max(0, start - 6) : start])
        or _BOUND_AFTER.match(sentence[start + len(span) :])
        for start in starts
    )


_PART_OF_YEAR = re.compile(
    r"\d{1,2}\s*[-—至~]\s*\d{1,2}\s*月份?|\d{1,2}\s*月份|前?[一二三四1-4]\s*季度|[上下]半年|"
    r"前\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*个?\s*月|"
    r"(?<![\d\-—至~.])\d{1,2}\s*月(?![份\d]|\s*\d{1,2}\s*[日号])"
)
"""1-2月份, 一季度, 上半年, 前三个月: a part of a year, whose figure is not the year's."""


_PART_DIGITS = str.maketrans("1234", "一二三四", " ")


def _part_name(part: str) -> str:
    """一季度 and 1季度, 前3个月 and 前三个月, 8月份 and 8月 name the same part of a year."""
    return part.translate(_PART_DIGITS).replace("个", "").removesuffix("份")


def _counted_for_another_time(span: str, sentence: str, question: str) -> bool:
    """True when every mention of `span` comes after a year not asked, or a part of a year not asked,
    or after the bare year when the question asks for a part of it (2022年汽车出口300万辆 is not 8月's).

    The nearest time before a number is the time it counts: in 2023年清明档总票房突破1.92亿元，超过2022年
    清明档 the 1.92亿元 is 2023's, and in 1-2月份，高技术制造业增加值增长14.4% the 14.4% is two months',
    so neither answers a question about 2022 or about the whole of 2021.
    """
    years = question_years(question)
    if not years:
        return False
    asked_parts = {_part_name(match.group(0)) for match in _PART_OF_YEAR.finditer(question)}
    parts = [(m.start(), _part_name(m.group(0)) in asked_parts) for m in _PART_OF_YEAR.finditer(sentence)]
    years_named = [(position, year in years, True) for position, year in year_mentions(sentence)]
    marks = sorted(years_named + [(position, fits, False) for position, fits in parts])
    starts = [match.start() for match in re.finditer(re.escape(span), sentence)]
    for start in starts:
        before = [(fits, is_year) for position, fits, is_year in marks if position < start]
        if not before or (before[-1][0] and not (asked_parts and before[-1][1])):
            return False
        if any(fits for position, fits in parts if position < start):
            # 一季度GDP同比增速从四季度的2.9%上行至4.5%: the asked part, named first, still owns 4.5%.
            return False
    return bool(starts)


def states_an_answer(kind: AnswerKind, sentence: str, question: str) -> bool:
    """The sentence answers: it states a span of the asked kind, or lists the things a count asks for."""
    if answer_spans(kind, sentence, question):
        return True
    return kind is AnswerKind.NUMBER and lists_what_is_counted(sentence, question)
