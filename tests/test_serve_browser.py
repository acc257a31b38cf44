"""A game night in a real browser: `scarbook serve` in its own process on a loopback port, driven through
headless Chromium (Debian's `chromium` and `chromedriver`, through Selenium) in a phone-sized window (390 px):
the last setup step, a refused game start (the ledger byte-identical), the game start and end, the packet the
end makes due, a reward of that game, undo with its confirmation, and a second window that follows the
first one's writes without a reload. Each step leaves a screenshot in SCARBOOK_SCREENSHOTS (default: the
test's tmp folder). Also: the server and the CLI writing at once lose nothing.

Without chromium the test is skipped, unless SCARBOOK_REQUIRE_BROWSER is set (`.ci/run` sets it): then it fails.

Slow: a real server process and a real browser, step by step.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from campaigns.helpers import SETUP, run_script
from campaigns.procs import sb
from campaigns.server import served

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
NOTE = "Bob agreed: Ann takes the city <script>window.pwned=2</script>\nand Cat the next one"
pytestmark = pytest.mark.slow


def _browser_or_skip() -> None:
    missing = [p for p in (CHROMIUM, DRIVER) if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip)")
    if missing:
        if os.environ.get("SCARBOOK_REQUIRE_BROWSER"):
            pytest.fail(f"{', '.join(missing)} missing and SCARBOOK_REQUIRE_BROWSER is set")
        pytest.skip(f"{', '.join(missing)} not installed")


@pytest.fixture
def browser() -> Iterator[Any]:
    _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(390, 844)
    try:
        yield driver
    finally:
        driver.quit()


def sha(file: Path) -> str:
    return hashlib.sha256(file.read_bytes()).hexdigest()


class Night:
    """The browser at the table: find, click, wait for the page a write answers with, take screenshots."""

    def __init__(self, driver: Any, base: str, file: Path, shots: Path) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.d, self.base, self.file, self.shots, self.by = driver, base, file, shots, By
        # a page that follows the campaign reloads itself: an element read as it is replaced is asked again
        self.wait = lambda seconds=20: WebDriverWait(driver, seconds, poll_frequency=0.1,
                                                     ignored_exceptions=(StaleElementReferenceException,))
        self.n = 0

    def open(self, path: str = "/") -> None:
        self.d.get(self.base + path)

    def body_sha(self) -> str:
        return str(self.d.find_element(self.by.TAG_NAME, "body").get_attribute("data-sha256"))

    def submit(self, element: Any) -> None:
        """Click a submit button and wait for the page that answers the write."""
        old = self.d.find_element(self.by.TAG_NAME, "body")
        element.click()
        self.wait().until(lambda d: _stale(old))

    def follow(self, element: Any) -> None:
        old = self.d.find_element(self.by.TAG_NAME, "body")
        element.click()
        self.wait().until(lambda d: _stale(old))

    def banner(self) -> str:
        found = self.d.find_elements(self.by.ID, "outcome")
        assert found, f"no outcome on {self.d.current_url}: {self.d.find_element(self.by.TAG_NAME, 'main').text}"
        return str(found[0].text)

    def shot(self, name: str) -> Path:
        self.n += 1
        height = self.d.execute_script("return document.documentElement.scrollHeight")
        self.d.set_window_size(390, min(int(height), 2600) + 90)
        path = self.shots / f"{self.n:02d}-{name}.png"
        self.d.save_screenshot(str(path))
        self.d.set_window_size(390, 844)
        width = self.d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"{name}: the page is {width} px wide on a 390 px phone"
        return path


def _stale(element: Any) -> bool:
    """Whether the page the element was on is gone. Chromium answers a node of a page it is just replacing with
    "Node with given id does not belong to the document" (an inspector error, not a stale reference): gone too."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        element.tag_name  # noqa: B018
    except StaleElementReferenceException:
        return True
    except WebDriverException as exc:
        if "does not belong to the document" in str(exc.msg or ""):
            return True
        raise
    return False


def test_a_game_night_in_a_phone_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    shots = Path(os.environ.get("SCARBOOK_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    file = tmp_path / "c.yaml"
    lines = SETUP.strip().splitlines()
    lines.remove("place coin japan")  # the last setup step is left for the browser
    assert not run_script("\n".join(lines) + "\n", file, _copy=False)

    with served(file, cache=tmp_path / "server-cache") as (base, _):
        night = Night(browser, base, file, shots)
        By = night.by
        night.open("/")
        table = browser.current_window_handle
        browser.switch_to.new_window("window")  # a second device at the table
        browser.set_window_size(390, 844)
        night.open("/")
        second = browser.current_window_handle
        browser.switch_to.window(table)
        assert night.body_sha() == sha(file)
        night.shot("setup-owed")

        # setup: the last coin, from the to-do list through the sticker's page
        todo = browser.find_element(By.CSS_SELECTOR, "#todo li.setup")
        assert "coin" in todo.text.lower()
        night.follow(todo.find_element(By.CSS_SELECTOR, "a.button"))
        night.shot("setup-where")
        night.submit(browser.find_element(By.XPATH, "//form[.//input[@name='target' and @value='japan-card']]//button"))
        assert "Recorded:" in night.banner()
        assert "Nothing is owed now." in browser.page_source
        night.shot("setup-done")

        # the second window follows without a reload by anyone
        browser.switch_to.window(second)
        night.wait(5).until(lambda d: night.body_sha() == sha(file))
        assert "Nothing is owed now." in browser.page_source
        night.shot("second-window-followed")
        browser.switch_to.window(table)

        # a refused move: one faction for two players; nothing written
        before = file.read_bytes()
        for n, faction in enumerate(("khan-industries", "khan-industries", "die-mechaniker")):
            Select(browser.find_element(By.ID, f"play-{n}-0")).select_by_value(faction)
        night.submit(browser.find_element(By.ID, "start-game"))
        refusal = night.banner()
        assert "Refused; nothing was written." in refusal and "R303" in refusal, refusal
        assert file.read_bytes() == before
        night.shot("refused-start")

        # game 1 starts and ends; a faction is eliminated: its packet is due
        for n, faction in enumerate(("khan-industries", "saharan-republic", "die-mechaniker")):
            Select(browser.find_element(By.ID, f"play-{n}-0")).select_by_value(faction)
        night.submit(browser.find_element(By.ID, "start-game"))
        assert "Recorded:" in night.banner() and "End game 1" in browser.page_source
        Select(browser.find_element(By.ID, "winner")).select_by_value("Ann")
        browser.find_element(By.XPATH, "//input[@name='eliminated' and @value='Cat']").click()
        night.shot("game-end-form")
        night.submit(browser.find_element(By.ID, "end-game"))
        assert "Recorded:" in night.banner()
        night.shot("game-ended")

        night.submit(browser.find_element(By.CSS_SELECTOR, "#todo li.open button"))
        opened = night.banner()
        assert "Recorded:" in opened and "the packet holds:" in opened, opened
        night.shot("packet-opened")

        # a reward of game 1: Bob held on, he founds a minor city
        step = next(li for li in browser.find_elements(By.CSS_SELECTOR, "#todo li.step") if "Bob" in li.text)
        night.follow(step.find_element(By.PARTIAL_LINK_TEXT, "Minor City"))
        form = browser.find_element(By.CSS_SELECTOR, "form.one-place")  # the name once, then where
        form.find_element(By.NAME, "name").send_keys("Bobville")
        Select(form.find_element(By.NAME, "target")).select_by_index(1)
        before_reward = file.read_bytes()
        night.submit(form.find_element(By.TAG_NAME, "button"))
        assert "Recorded:" in night.banner() and "Bobville" in night.banner()
        night.shot("reward")
        browser.switch_to.window(second)
        night.wait(5).until(lambda d: night.body_sha() == sha(file))
        assert "Bob</strong>: A held-on" not in browser.page_source  # the step is gone there too
        browser.switch_to.window(table)

        # the winner's reward: Ann founds a major city (Cat was eliminated: none for her); then nothing is owed
        step = next(li for li in browser.find_elements(By.CSS_SELECTOR, "#todo li.step") if "Ann" in li.text)
        night.follow(step.find_element(By.PARTIAL_LINK_TEXT, "Major City"))
        form = browser.find_element(By.CSS_SELECTOR, "form.one-place")
        form.find_element(By.NAME, "name").send_keys("Annapolis")
        Select(form.find_element(By.NAME, "target")).select_by_index(1)
        form.find_element(By.CSS_SELECTOR, "details.note-field summary").click()  # the note, folded until asked
        form.find_element(By.NAME, "note").send_keys(NOTE)
        night.shot("reward-with-a-note")
        before_reward = file.read_bytes()
        night.submit(form.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        assert "Recorded:" in night.banner() and "Annapolis" in night.banner()
        assert f"with the note: {NOTE.splitlines()[0]}" in night.banner()
        assert not browser.find_elements(By.CSS_SELECTOR, "#todo li.step")
        after_reward = file.read_bytes()
        assert "note: " in after_reward.decode().splitlines()[-1]
        night.shot("rewards-done")

        # undo, after a confirmation: the file as it was before the last reward
        night.follow(browser.find_element(By.LINK_TEXT, "Undo"))
        assert "Annapolis" in browser.page_source
        night.shot("undo-confirm")
        night.submit(browser.find_element(By.ID, "confirm-undo"))
        assert "Undone:" in night.banner()
        assert file.read_bytes() == before_reward
        night.shot("undone")

        # redo, after a confirmation: the event back, with its note; the second window follows
        night.follow(browser.find_element(By.ID, "redo-link"))
        assert "Annapolis" in browser.page_source
        night.shot("redo-confirm")
        night.submit(browser.find_element(By.ID, "confirm-redo"))
        assert "Recorded:" in night.banner() and "Annapolis" in night.banner()
        assert file.read_bytes() == after_reward
        night.shot("redone")
        browser.switch_to.window(second)
        night.wait(5).until(lambda d: night.body_sha() == sha(file))
        browser.switch_to.window(table)

        # the history shows the note as text
        night.follow(browser.find_element(By.LINK_TEXT, "History"))
        shown = browser.find_elements(By.CSS_SELECTOR, "ol.log .event-note")
        assert [e.text for e in shown] == [NOTE], [e.text for e in shown]
        night.shot("history-with-the-note")

        # a note being typed in the second window is not reloaded away when the file changes: the page says so
        browser.switch_to.window(second)
        night.open("/")
        typed = browser.find_element(By.ID, "start-note")
        typed.find_element(By.XPATH, "ancestor::details/summary").click()
        typed.send_keys("half a sentence")
        built = night.body_sha()
        assert sb("campaign", "undo", "-c", str(file)).returncode == 0  # the command line writes meanwhile
        live = browser.find_element(By.ID, "live")
        night.wait(5).until(lambda d: live.text == "changed: reload")
        assert night.body_sha() == built and typed.get_attribute("value") == "half a sentence"
        night.shot("second-window-typing-kept")
        assert not browser.execute_script("return window.pwned")


def _post(opener: urllib.request.OpenerDirector, url: str, fields: dict[str, str]) -> tuple[int, str]:
    data = urllib.parse.urlencode(fields).encode()
    try:
        with opener.open(urllib.request.Request(url, data=data, method="POST"), timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_the_server_and_the_cli_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    """Four coins by the CLI, four through the server's pages, at the same time: every write is either recorded
    or refused as stale (then done again on the fresh page); the file ends with all eight, and checks clean."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP.strip().splitlines()[0] + "\n", file, _copy=False)  # `new` only: 12 coins owed
    cli_targets = ["alaska", "alaska", "brazil", "brazil"]
    web_targets = ["china", "china", "india", "india"]
    with served(file, cache=tmp_path / "server-cache") as (base, _):
        failures: list[str] = []

        def cli() -> None:
            for target in cli_targets:
                done = sb("campaign", "place", "coin", target, "-c", str(file))
                if done.returncode:
                    failures.append(done.stderr)

        def web() -> None:
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
            for target in web_targets:
                for _ in range(20):
                    with opener.open(base + "/", timeout=60) as page:
                        fields = dict(re.findall(r'name="(csrf|sha256)" value="([^"]*)"', page.read().decode())[:2])
                    status, text = _post(opener, base + "/do/place", {**fields, "sticker": "coin", "target": target})
                    if status == 200:
                        break
                    if status != 409 or "the campaign changed since you opened this page" not in text:
                        failures.append(f"{status}: {text[:400]}")
                        return
                else:
                    failures.append(f"coin on {target}: stale twenty times")

        threads = [threading.Thread(target=cli), threading.Thread(target=web)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert not failures, failures
    log = sb("campaign", "log", "-c", str(file)).stdout
    placed = re.findall(r": coin on ([a-z-]+)-card$", log, re.MULTILINE)
    assert sorted(placed) == sorted(cli_targets + web_targets), log
    checked = sb("campaign", "check", "--format", "json", "-c", str(file))
    assert checked.returncode == 0 and not [d for d in json.loads(checked.stdout) if d["severity"] == "error"]


def test_shared_on_the_network_the_join_link_is_printed_and_every_write_needs_it(tmp_path: Path) -> None:
    """`--host 0.0.0.0` (reached here on loopback): the printed join link holds the token; without it a write
    is refused and the file stays byte-identical; with it the same write is recorded."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP.strip().splitlines()[0] + "\n", file, _copy=False)
    with served(file, "--host", "0.0.0.0", cache=tmp_path / "server-cache") as (base, proc):
        assert proc.stdout is not None
        said = [proc.stdout.readline() for _ in range(2)]
        token = re.search(r"join\?token=([\w-]+)", said[1])
        assert said[0].startswith("serving ") and token, said
        before = file.read_bytes()
        stranger = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        try:
            stranger.open(base + "/", timeout=60)
            raise AssertionError("the table page answered without the token")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        status, _ = _post(stranger, base + "/do/place", {"sticker": "coin", "target": "alaska"})
        assert status == 403 and file.read_bytes() == before
        guest = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with guest.open(f"{base}/join?token={token.group(1)}", timeout=60) as page:
            fields = dict(re.findall(r'name="(csrf|sha256)" value="([^"]*)"', page.read().decode())[:2])
        status, text = _post(guest, base + "/do/place", {**fields, "sticker": "coin", "target": "alaska"})
        assert status == 200 and "Recorded:" in text and file.read_bytes() != before
