#!/usr/bin/env python3
"""Drives `kiosk serve` in headless Chromium (chromium-driver, Selenium) like a passenger and a kiosk would.

Usage: browser_check.py BASE_URL OUTPUT_DIR
BASE_URL is a server on the sample network with the demo session as its camera (`kiosk demo --web --port 0`).
Checks: the phone page at 390x844 shows the departures without horizontal scrolling, its stop map and the plan's
journey map load; its plan form plans; with the reader's system asking for more contrast every text passes axe's
7:1 rule; /kiosk says the board from its speak button and keys (another key interrupts), switches to a stop when the
replayed camera shows its code and returns home after the idle time; axe-core finds no serious or critical violation
on the phone page and on /kiosk. Screenshots go to OUTPUT_DIR. Exit 0 when all hold.
"""
import json
import os
import sys
import time

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


# Every visible text's colour against the background behind it (the first opaque one up the tree), by WCAG's
# contrast formula; returns the texts below `minimum` (axe-core's own AAA rule is not in the bundled axe 1.1).
CONTRAST_SCRIPT = """
var minimum = arguments[0];
function rgb(text) { var m = text.match(/[0-9.]+/g) || []; return m.map(Number); }
function luminance(c) {
  var l = c.slice(0, 3).map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}
function background(element) {
  for (var e = element; e; e = e.parentElement) {
    var c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) { return c; }
  }
  return [255, 255, 255];
}
var low = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (var node = walker.nextNode(); node; node = walker.nextNode()) {
  var element = node.parentElement;
  if (!node.textContent.trim() || !element || element.closest("script, style, audio, svg")) { continue; }
  var rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) { continue; }
  var a = luminance(rgb(getComputedStyle(element).color)), b = luminance(background(element));
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < minimum) { low.push(node.textContent.trim().slice(0, 40) + " " + ratio.toFixed(2)); }
}
return low;
"""


def wait_for(driver, condition, timeout, message):
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)
        return True
    except TimeoutException:
        check(False, message)
        return False


def image_loaded(selector):
    return lambda d: d.execute_script(
        "var i = document.querySelector(arguments[0]); return !!i && i.complete && i.naturalWidth > 0", selector)


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", "--hide-scrollbars", "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_window_size(width, height)
    return driver


def axe_check(driver, name, out):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    with open(os.path.join(out, f"axe-{name}.json"), "w") as f:
        json.dump(results["violations"], f, indent=1)
    for violation in serious:
        print(f"axe {name}: {violation['impact']} {violation['id']}: {violation['help']}")
    check(not serious, f"axe: {len(serious)} serious or critical violations on {name}")


def phone(base, out):
    driver = browser(390, 844)
    try:
        driver.get(base + "/s/1091?lang=en")
        wait = WebDriverWait(driver, 30)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "h1")))
        rows = driver.find_elements(By.CSS_SELECTOR, "table.departures tr")
        check(len(rows) > 0, "phone page: no departures shown")
        scroll = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(scroll[0] <= scroll[1], f"phone page scrolls horizontally: {scroll[0]} > {scroll[1]} px")
        driver.execute_script("document.querySelector('figure.map').scrollIntoView()")
        wait_for(driver, image_loaded("figure.map img"), 30, "phone page: the stop map did not load")
        driver.save_screenshot(os.path.join(out, "phone-stop-map.png"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(out, "phone-stop.png"))
        axe_check(driver, "phone-stop", out)
        # A reader whose system asks for more contrast: the high-contrast theme, every text at 7:1 or more.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-contrast", "value": "more"}]})
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(out, "phone-stop-high-contrast.png"))
        low = driver.execute_script(CONTRAST_SCRIPT, 7)
        for item in low[:10]:
            print(f"high contrast: {item}")
        check(not low, f"high contrast: {len(low)} texts below 7:1 on the phone page")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        field = driver.find_element(By.ID, "to")
        field.send_keys("Cumbayá")
        field.submit()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "section.option")))
        check("Option 1" in driver.page_source, "plan form: no option shown")
        check("/plan?" in driver.current_url, f"plan form went to {driver.current_url}")
        driver.execute_script("document.querySelector('section.option figure.map').scrollIntoView()")
        wait_for(driver, image_loaded("section.option figure.map img"), 30, "plan page: the journey map did not load")
        scroll = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(scroll[0] <= scroll[1], f"plan page scrolls horizontally: {scroll[0]} > {scroll[1]} px")
        driver.save_screenshot(os.path.join(out, "phone-plan.png"))
    finally:
        driver.quit()


def kiosk(base, out):
    driver = browser(1280, 800)
    try:
        driver.get(base + "/kiosk")
        board = lambda: driver.find_element(By.ID, "board")
        wait = WebDriverWait(driver, 90, poll_frequency=0.05)
        wait.until(lambda d: board().get_attribute("data-state") == "home")
        driver.save_screenshot(os.path.join(out, "kiosk-home.png"))
        axe_check(driver, "kiosk", out)
        body = lambda: driver.find_element(By.TAG_NAME, "body")
        # The configured home stop (the board itself may already show a scanned stop by now).
        home = body().get_attribute("data-home")
        speaking = lambda: body().get_attribute("data-speaking") or ""
        driver.find_element(By.ID, "speak").click()
        if wait_for(driver, lambda d: speaking() != "", 10, "kiosk: the speak button did not say the board"):
            ActionChains(driver).send_keys("x").perform()
            ended = body().get_attribute("data-speech-end")
            check(speaking() == "" and ended == "interrupted",
                  f"kiosk: another key did not interrupt the speech (it ended: {ended!r})")
            ActionChains(driver).send_keys(Keys.F5).perform()
            wait_for(driver, lambda d: speaking() != "", 10, "kiosk: the speak key (F5) did not say the board")
            wait_for(driver, lambda d: speaking() == "", 90, "kiosk: the speech did not play to its end")
            error = body().get_attribute("data-speech-error")
            check(not error, f"kiosk: speech failed in the browser: {error}")
        # The replayed session also shows the home stop's own code now and then: wait for another stop.
        wait.until(lambda d: board().get_attribute("data-state") == "stop"
                   and board().get_attribute("data-stop") != home)
        shown = board().get_attribute("data-stop")
        check(shown and shown != home, f"kiosk: switched to {shown!r} (home {home!r})")
        latency = board().get_attribute("data-shown-after-ms")
        print(f"kiosk: scan event to stop shown: {latency} ms")
        driver.save_screenshot(os.path.join(out, "kiosk-stop.png"))
        wait_for(driver, lambda d: board().get_attribute("data-state") == "home"
                 and board().get_attribute("data-stop") == home, 120,
                 f"kiosk: did not return home ({home!r}); showing {board().get_attribute('data-stop')!r}")
        driver.save_screenshot(os.path.join(out, "kiosk-back-home.png"))
    finally:
        driver.quit()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, out = sys.argv[1].rstrip("/"), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    phone(base, out)
    kiosk(base, out)
    print(f"{len(failures)} failures; screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
