#!/usr/bin/env python3
"""Checks in headless Chromium (chromium-driver, Selenium) that /kiosk says a severe message once (issue 26).

Usage: takeover_speech_check.py BASE_URL KIOSK DATABASE MESSAGES
BASE_URL is `kiosk serve` with home_stop = "1091", language = "es", [speech] auto_speak = true and
[realtime] alerts naming MESSAGES, a staff messages file that already holds a severe message for every kiosk with
the id "strike" (written with KIOSK `message add … --db DATABASE`).

The page's speech requests are recorded by wrapping `Audio` before its script runs. Checks: the page asks
/kiosk/takeover/speech once for the message, in its language, naming the digest the board marks it with; the
answer is audio/wav with a RIFF/WAVE header; the next refreshes do not ask again; a second severe message (for the
kiosk's own stop) is asked for once, alone; after the language switch (a reload) neither is asked for again; once
both are removed the band goes and nothing is asked for, and the endpoint refuses the old digest (404).
Each speech is let play to its end before the next refreshes, so they find the page silent (it never says a
message over another speech). Refreshes are the page's own board reloads, started by a `visibilitychange` event; every wait polls for a
condition with a bound. Exit 0 when all hold.
"""
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

failures = []

# Before the page's own script: every `new Audio(url)` is recorded in `window.__speech`.
AUDIO_HOOK = """
window.__speech = [];
(function () {
  var Real = window.Audio;
  window.Audio = function (src) { window.__speech.push(String(src)); return new Real(src); };
})();
"""


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)
    return condition


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,800", "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AUDIO_HOOK})
    return driver


class Kiosk:
    def __init__(self, driver, base):
        self.driver = driver
        self.base = base

    def script(self, text, *args):
        return self.driver.execute_script(text, *args)

    def loads(self):
        return int(self.script("return Number(document.getElementById('board').dataset.loads) || 0"))

    def state(self):
        return self.script("return document.getElementById('board').dataset.state || ''")

    def marked(self):
        """The digests the board's takeover band marks to be said, in order."""
        return self.script("return Array.prototype.map.call("
                           "document.querySelectorAll('#board .takeover [data-say]'), function (p) {"
                           " return p.dataset.say; })")

    def speaking(self):
        return self.script("return document.body.dataset.speaking || ''")

    def said_to_the_end(self):
        """Waits until the takeover being said has played to its end (a refresh then finds the page silent)."""
        self.wait(lambda: self.speaking() == "", 120, "the takeover speech did not end")
        ended = self.script("return document.body.dataset.speechEnd || ''")
        return check(ended == "finished", f"the takeover speech ended {ended!r}, not 'finished'")

    def band_text(self):
        return self.script("var b = document.querySelector('#board .takeover'); return b ? b.textContent : ''")

    def takeover_requests(self):
        return [url for url in self.script("return window.__speech || []") if "/kiosk/takeover/speech" in url]

    def wait(self, condition, bound, message):
        try:
            WebDriverWait(self.driver, bound, poll_frequency=0.1).until(lambda d: condition())
            return True
        except TimeoutException:
            return check(False, message)

    def refresh(self):
        """One board reload by the page's own code path; waits until it is shown."""
        before = self.loads()
        self.script("document.dispatchEvent(new Event('visibilitychange'))")
        return self.wait(lambda: self.loads() > before, 60, "the board did not reload on visibilitychange")

    def refresh_until(self, condition, bound, message):
        """Reloads the board until `condition` holds (the server reads the messages file every 5 s)."""
        def attempt():
            if condition():
                return True
            self.refresh()
            return condition()
        return self.wait(attempt, bound, message)

    def open(self, path):
        self.driver.get(self.base + path)
        return self.wait(lambda: self.state() == "home" and self.loads() > 0, 90,
                         f"{path}: the home board did not show")


def query(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)


def fetch(base, url):
    try:
        with urllib.request.urlopen(urllib.parse.urljoin(base, url), timeout=120) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def message(kiosk, *arguments):
    """Runs `kiosk message …` as staff would; its output is shown when it fails."""
    result = subprocess.run([kiosk, "message", *arguments], capture_output=True, text=True, timeout=120)
    check(result.returncode == 0, f"kiosk message {' '.join(arguments)}: {result.stdout}{result.stderr}")


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    base, kiosk_binary, database, messages = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4]
    driver = browser()
    try:
        page = Kiosk(driver, base)
        # In Spanish whatever the browser's Accept-Language (headless Chromium asks for English).
        if not page.open("/kiosk?lang=es"):
            return 1
        page.refresh_until(lambda: len(page.marked()) == 1, 120, "the severe message for every kiosk is not marked")
        strike = (page.marked() or [""])[0]
        check("Huelga: no hay servicio" in page.band_text(), f"the band: {page.band_text()!r}")
        # Said once: wait for the request, then two more refreshes ask for nothing more.
        page.wait(lambda: page.takeover_requests(), 60, "the severe message was not asked to be said")
        page.said_to_the_end()
        for _ in range(2):
            page.refresh()
        requests = page.takeover_requests()
        print(f"takeover speech requests: {requests}")
        if check(len(requests) == 1, f"asked {len(requests)} times, not once: {requests}"):
            asked = query(requests[0])
            check(asked.get("lang") == ["es"], f"not in the page's language (es): {requests[0]}")
            check(asked.get("say") == [strike], f"does not name the marked message {strike}: {requests[0]}")
            status, headers, body = fetch(base, requests[0])
            check(status == 200, f"{requests[0]} answered {status}: {body[:200]!r}")
            check((headers.get("Content-Type") or "").startswith("audio/wav"), f"type {headers.get('Content-Type')}")
            check(headers.get("Content-Language") == "es", f"language {headers.get('Content-Language')}")
            check(body[:4] == b"RIFF" and body[8:12] == b"WAVE" and len(body) > 44, f"not a WAV: {body[:16]!r}")

        # A second severe message, for the kiosk's own stop: said once, alone.
        message(kiosk_binary, "add", "--id", "closed", "--stops", "1091", "--severity", "severe",
                "--text-es", "Parada cerrada por obras", "--text-en", "Stop closed for works", "--out", messages,
                "--db", database)
        page.refresh_until(lambda: len(page.marked()) == 2, 120, "the second severe message is not marked")
        closed = [digest for digest in page.marked() if digest != strike]
        check(len(closed) == 1, f"marked: {page.marked()} (first {strike})")
        page.refresh_until(lambda: len(page.takeover_requests()) >= 2, 120, "the second message was not said")
        page.said_to_the_end()
        for _ in range(2):
            page.refresh()
        requests = page.takeover_requests()
        print(f"takeover speech requests: {requests}")
        if check(len(requests) == 2, f"asked {len(requests)} times, not twice: {requests}"):
            asked = query(requests[1])
            check(asked.get("say") == closed[:1] and asked.get("lang") == ["es"],
                  f"the second request does not name the new message {closed} alone, in es: {requests[1]}")
        check("Parada cerrada por obras" in page.band_text(), f"the band: {page.band_text()!r}")
        error = driver.find_element(By.TAG_NAME, "body").get_attribute("data-speech-error")
        check(not error, f"speech failed in the browser: {error}")

        # The language switch reloads the page: the messages are shown in English and not said again.
        driver.find_element(By.ID, "lang").click()
        page.wait(lambda: page.script("return document.documentElement.lang") == "en" and page.state() == "home"
                  and page.loads() > 0, 90, "the language link did not show the English home board")
        for _ in range(2):
            page.refresh()
        check("Strike: no service" in page.band_text() and "Stop closed for works" in page.band_text(),
              f"the band in English: {page.band_text()!r}")
        check(page.takeover_requests() == [], f"said again after the language switch: {page.takeover_requests()}")

        # Removed (as an ended message): the band goes, nothing is said, the old digest is refused.
        message(kiosk_binary, "remove", "strike", "--file", messages)
        message(kiosk_binary, "remove", "closed", "--file", messages)
        page.refresh_until(lambda: page.band_text() == "", 120, "the band did not go when the messages were removed")
        check(page.takeover_requests() == [], f"said after removal: {page.takeover_requests()}")
        status, _, body = fetch(base, f"/kiosk/takeover/speech?lang=es&say={strike}")
        check(status == 404, f"a removed message's speech answered {status}: {body[:200]!r}")
    finally:
        driver.quit()
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
