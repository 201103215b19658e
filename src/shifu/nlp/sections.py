"""Which sections of two versions of a document are the same section.

A new version of a policy is often ingested as a document of its own (`qingjia_zhidu_2024`,
`qingjia_zhidu_2025`) under the same title, and its headings may carry the version
(四、请假审批权限（2025版）). Retrieval fetches the same section of the other versions and the
evidence gate compares them; both need one reading of "the same section".
"""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_VERSION_MARK = re.compile(r"[（(][^）)]*版[）)]")


def title_key(title: str) -> str:
    """A document title without spacing: versions of one document share it."""
    return _SPACE.sub("", title)


def section_key(locator: str) -> str:
    """A locator without its version mark: 四、请假审批权限（2024版） and （2025版） are one section."""
    return _SPACE.sub("", _VERSION_MARK.sub("", locator))
