"""Words that state what a record or document must contain.

"复盘记录应写明复盘日期、复盘原因……" answers "复盘记录要写哪些内容" the way "须提交以下材料" answers
"要交哪些材料": both list what must be supplied. The classifier labels such a text as a candidate
for REQUIRED_MATERIALS, the evidence gate accepts it as the body of a materials claim, and the
composer quotes its sentence — one word list for all three, so they cannot drift apart.
"""

from __future__ import annotations

RECORD_CONTENT_WORDS = ("写明", "载明", "注明", "列明", "填写")
"""Verbs of stating content in a record (应写明 / 应当载明 / 须注明 / 如实填写)."""
