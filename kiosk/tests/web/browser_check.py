#!/usr/bin/env python3
"""Drives `kiosk serve` in headless Chromium (chromium-driver, Selenium) like a passenger and a kiosk would.

Usage: browser_check.py BASE_URL OUTPUT_DIR
BASE_URL is a server on the sample network with the demo session as its camera (`kiosk demo --web --port 0`).
Checks: the phone page at 390x844 shows the departures without horizontal scrolling; its plan form plans; /kiosk
switches to a stop when the replayed camera shows its code and returns home after the idle time; axe-core finds no
serious or critical violation on the phone page and on /kiosk. Screenshots go to OUTPUT_DIR. Exit 0 when all hold.
"""
import json
import os
import sys
import time

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
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
        driver.save_screenshot(os.path.join(out, "phone-stop.png"))
        axe_check(driver, "phone-stop", out)
        field = driver.find_element(By.ID, "to")
        field.send_keys("Cumbayá")
        field.submit()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "section.option")))
        check("Option 1" in driver.page_source, "plan form: no option shown")
        check("/plan?" in driver.current_url, f"plan form went to {driver.current_url}")
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
        home = board().get_attribute("data-stop")
        # The replayed session also shows the home stop's own code now and then: wait for another stop.
        wait.until(lambda d: board().get_attribute("data-state") == "stop"
                   and board().get_attribute("data-stop") != home)
        shown = board().get_attribute("data-stop")
        check(shown and shown != home, f"kiosk: switched to {shown!r} (home {home!r})")
        latency = board().get_attribute("data-shown-after-ms")
        print(f"kiosk: scan event to stop shown: {latency} ms")
        driver.save_screenshot(os.path.join(out, "kiosk-stop.png"))
        WebDriverWait(driver, 120, poll_frequency=0.2).until(
            lambda d: board().get_attribute("data-state") == "home")
        check(board().get_attribute("data-stop") == home, "kiosk: did not return home")
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
