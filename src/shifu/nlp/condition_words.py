"""Words that state a condition: who or what a rule applies to, and when.

"员工出现以下情况之一的，系统自动将其列入待复盘名单" answers "什么情况下会进入待复盘名单": the evidence
gate accepts such a sentence as the body of a condition claim and the composer quotes it for an
eligibility question — one word list for both, so they cannot drift apart.
"""

from __future__ import annotations

CONDITION_WORDS = ("条件", "符合", "满足", "适用", "方可", "资格", "有权", "可以", "情形之一", "情况之一")
"""Words of a condition or an entitlement (符合…条件, 有下列情形之一的, 方可)."""
