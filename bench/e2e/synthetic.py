"""Synthetic governed documents for the scale part: many `## ` sections of policy-like Chinese.

Vocabulary is drawn from property-management terms with a fixed seed so BM25 sees a realistic,
skewed term distribution; the texts are nonsense on purpose and never answer a real question
better than the demo corpus does.
"""

from __future__ import annotations

import random
from pathlib import Path

SUBJECTS = (
    "保洁", "绿化", "门岗", "车场", "客服", "工程", "秩序", "会务", "仓库", "档案", "水电", "空调",
    "给排水", "弱电", "监控", "电梯维保", "消防控制室", "垃圾分类", "二次供水", "外墙清洗", "地下室",
    "会所", "泳池", "快递柜", "充电桩", "访客", "钥匙", "装修巡查", "公共区域", "设备房",
)  # fmt: skip
VERBS = ("检查", "登记", "巡视", "维护", "交接", "上报", "复核", "清点", "培训", "抽查", "记录", "整改")
OBJECTS = (
    "台账", "记录表", "工具", "隐患", "钥匙", "门禁卡", "照明", "标识", "设备", "配件", "耗材", "物料",
    "安全帽", "对讲机", "工单", "回访单", "值班表", "巡更点", "报修单", "验收单",
)  # fmt: skip
RULES = ("应当", "须", "不得", "原则上", "每日", "每周", "每月", "每季度", "发现问题后", "交班前")


def sentence(rng: random.Random) -> str:
    """One policy-like sentence."""
    return (
        f"{rng.choice(SUBJECTS)}岗位{rng.choice(RULES)}{rng.choice(VERBS)}{rng.choice(OBJECTS)}，"
        f"并由{rng.choice(SUBJECTS)}负责人{rng.choice(VERBS)}{rng.choice(OBJECTS)}"
        f"{rng.randint(1, 30)}次。"
    )


def write_corpus(folder: Path, *, fragments: int, per_file: int = 200, seed: int = 7) -> int:
    """Write ceil(fragments / per_file) markdown files; returns the number of sections written."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    number = 0
    while written < fragments:
        count = min(per_file, fragments - written)
        lines = [f"# 合成作业规范{number:04d}", ""]
        for section in range(count):
            lines += [f"## 第{section + 1}节 {rng.choice(SUBJECTS)}{rng.choice(OBJECTS)}", ""]
            lines += [sentence(rng) + sentence(rng) + sentence(rng), ""]
        (folder / f"synthetic_{number:04d}.md").write_text("\n".join(lines), encoding="utf-8")
        written += count
        number += 1
    return written
