"""The H5 chat page at `/`, driven in Debian's Chromium through Playwright.

A demo deployment without laws is served by a real uvicorn server on a free loopback port;
the page is used at a phone-sized viewport exactly as a demo visitor would: pick an actor,
ask, read the status and the answer, switch actors, confirm a draft card. The page must not
reach for anything but its own origin (no CDN, no fonts from the web).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Locator, Page, ViewportSize, sync_playwright

from shifu.api.app import create_app
from shifu.config import Settings, use_settings
from shifu.demo.setup import bring_up_demo, demo_actor_tokens
from shifu.runtime.wiring import build_services

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
EMBEDDING_CACHE = REPO / ".cache" / "embeddings"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT: ViewportSize = {"width": 390, "height": 800}
STEP_TIMEOUT_MS = 30_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="needs Debian chromium (scripts/system-deps.sh)"),
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A demo deployment (no laws) served by uvicorn in a thread; yields its origin URL."""
    root = tmp_path_factory.mktemp("h5")
    (root / "laws").mkdir()
    settings = Settings(
        data_dir=root / "var", environment="demo", laws_dir=root / "laws", embedding_cache=EMBEDDING_CACHE
    )
    with use_settings(settings):
        bring_up_demo(settings, out=None)
        services = build_services(settings)
        app = create_app(settings, services, demo_actors=lambda: demo_actor_tokens(settings))
        port = _free_port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False)
        )
        thread = threading.Thread(target=server.run, name="h5-uvicorn", daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 30
            while not server.started:
                assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=15)
            services.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module (Debian's binary; never a downloaded one)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Visit:
    """One page of the app plus every URL it requested."""

    page: Page
    requests: list[str]

    def bot_bubbles(self) -> Locator:
        """The bot's message bubbles, in order."""
        return self.page.locator("#messages .bubble.bot")

    def ask(self, text: str) -> Locator:
        """Type and send a message; return the new bot bubble once it is shown."""
        before = self.page.locator("#messages .bubble.bot").count()
        self.page.fill("#text", text)
        self.page.click("#send")
        bubble = self.page.locator("#messages .bubble.bot").nth(before)
        bubble.wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
        return bubble


@pytest.fixture
def visit(browser: Browser, origin: str) -> Iterator[Visit]:
    """A fresh phone-sized page on `/` with the actor picker loaded; asserts no foreign request."""
    context = browser.new_context(viewport=VIEWPORT, locale="zh-CN")
    context.set_default_timeout(STEP_TIMEOUT_MS)
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.goto(f"{origin}/", wait_until="networkidle")
        page.locator("#actor option").first.wait_for(state="attached")
        yield Visit(page=page, requests=requested)
        foreign = [url for url in requested if not url.startswith(f"{origin}/")]
        assert foreign == [], f"the page requested non-local URLs: {foreign}"
    finally:
        context.close()


def test_page_loads_only_local_assets_and_offers_the_demo_actors(visit: Visit, origin: str) -> None:
    page = visit.page
    assert page.title() == "数字师傅"
    assert page.locator("#actor-picker").is_visible()
    labels = page.locator("#actor option").all_inner_texts()
    assert "张三（员工）" in labels
    assert "李四（主管）" in labels
    assert visit.requests
    assert all(url.startswith(f"{origin}/") for url in visit.requests), visit.requests
    assert f"{origin}/static/app.js" in visit.requests
    assert f"{origin}/static/style.css" in visit.requests


def test_employee_asks_for_todays_tasks_and_sees_a_completed_answer(visit: Visit, tmp_path: Path) -> None:
    page = visit.page
    page.select_option("#actor", "employee")
    bubble = visit.ask("我今天有什么待办？")
    status = bubble.locator(".status")
    assert "COMPLETED" in status.inner_text()
    assert "LIVE_MY_WORK" in status.inner_text()
    answer = bubble.locator(".answer").inner_text()
    assert "待办" in answer
    assert "・" in answer, "the answer lists at least one task"
    assert "来源：我的当前待办" in bubble.inner_text()
    assert page.locator("#messages .bubble.user").inner_text() == "我今天有什么待办？"
    page.screenshot(path=str(tmp_path / "h5-tasks.png"), full_page=True)
    assert (tmp_path / "h5-tasks.png").stat().st_size > 0


def test_switching_actor_resets_the_conversation(visit: Visit) -> None:
    page = visit.page
    page.select_option("#actor", "employee")
    visit.ask("我今天有什么待办？")
    assert page.locator("#messages .bubble").count() == 2
    page.select_option("#actor", "employee_other_project")
    assert page.locator("#messages .bubble").count() == 0
    bubble = visit.ask("我今天有什么待办？")
    assert "COMPLETED" in bubble.locator(".status").inner_text()
    answer = bubble.locator(".answer").inner_text()
    assert "没有需要处理的待办" in answer, "赵六 has no tasks and must not see 张三's"
    assert "・" not in answer
    assert page.locator("#messages .bubble").count() == 2


DONE_WORDS = ("已发送", "已保存", "已指派", "已提交")


@pytest.mark.parametrize(
    ("visibility", "done"),
    [("PRIVATE", "已保存为私人记录"), ("COMPANY", "已提交为公司记录")],
    ids=["private", "company"],
)
def test_a_draft_card_saves_nothing_until_confirmed(
    visit: Visit, tmp_path: Path, visibility: str, done: str
) -> None:
    page = visit.page
    page.select_option("#actor", "employee")
    bubble = visit.ask("记一下，3栋1201要回访")
    assert "NEEDS_CONFIRMATION" in bubble.locator(".status").inner_text()
    card = bubble.locator(".card")
    confirm, dismiss = card.get_by_role("button", name="确认"), card.get_by_role("button", name="取消")
    assert confirm.is_visible()
    assert dismiss.is_visible()
    card_text = card.inner_text()
    assert "内容：3栋1201要回访" in card_text
    assert "null" not in card_text
    assert "content" not in card_text
    assert card_text.count("待确认") == 1
    assert not any(word in page.locator("#messages").inner_text() for word in DONE_WORDS)
    page.screenshot(path=str(tmp_path / "h5-card.png"), full_page=True)

    card.locator("select.visibility").select_option(visibility)
    with page.expect_response(lambda r: r.url.endswith("/confirm")) as confirmed:
        confirm.click()
    response = confirmed.value
    assert response.status == 200
    sent = response.request.post_data_json
    assert sent is not None
    assert sent["visibility"] == visibility
    result = response.json()
    assert result["status"] == "EXECUTED"
    assert result["receipt"], "an executed draft carries the domain's receipt"
    shown = visit.bot_bubbles().last
    shown.wait_for(state="visible")
    assert shown.inner_text() == result["message"]
    assert shown.inner_text().startswith(done)
    assert confirm.is_disabled()
    assert dismiss.is_disabled()
    page.screenshot(path=str(tmp_path / "h5-confirmed.png"), full_page=True)


def test_dismissing_a_draft_executes_nothing(visit: Visit) -> None:
    page = visit.page
    page.select_option("#actor", "employee")
    card = visit.ask("记一下，5栋302门禁坏了").locator(".card")
    with page.expect_response(lambda r: r.url.endswith("/dismiss")) as dismissed:
        card.get_by_role("button", name="取消").click()
    assert dismissed.value.status == 200
    shown = visit.bot_bubbles().last
    shown.wait_for(state="visible")
    assert shown.inner_text() == "已取消，没有执行任何操作。"
    assert not any(word in page.locator("#messages").inner_text() for word in DONE_WORDS)
