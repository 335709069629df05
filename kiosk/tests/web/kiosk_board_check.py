#!/usr/bin/env python3
"""The /kiosk board as a passenger sees it, in headless Chromium (chromium-driver, Selenium) at the sizes of real
kiosk panels: 1280x800, 1920x1080, 1080x1920 (portrait) and 800x480.

Usage: kiosk_board_check.py BASE_URL OUTPUT_DIR NAME [--busy] [--pick-busiest] [--plan=LETTERS] [STOP ...]
BASE_URL is a `kiosk serve` or `kiosk demo --web`; NAME prefixes the screenshots; each STOP is shown as the screen's
own stop (`/kiosk?home=STOP`); a STOP of "-" (or none) shows the server's home stop, or the scan prompt without one.
--pick-busiest: of the STOPs, only the one with the most routes and destinations due (by the API) is shown.
--busy: the first STOP must show at least 8 grouped rows at 1280x800 (the stop has that many due).
--plan=LETTERS: the planner is used on the first STOP's board by typing LETTERS on its keys.
--lang=es: the board in Spanish (default English).
--takeover: a severe message is in force; every board must show its band (reloaded until the server has read it).
Where the alerts line has several alerts, one shows at a time and the line turns to the next by itself.

At every size and for every stop: the page never scrolls; no two texts overlap; no text is cut by its box or off
the screen; no button label wraps; text is at least 16 px, the times at least 28 px at 1280x800; the stop's name,
the clock, the live/timetable line, the scan prompt and the buttons are on the screen; every row has a route, a
destination and at least one time; the buttons are at least 48 px; when the rows do not all fit they page on their
own with a page indicator, and every row is shown on some page; axe-core finds no violation. The on-screen trip
planner is used without a keyboard (its own keys, a stop chosen from the matches, an option shown) and is measured
the same way. Screenshots go to OUTPUT_DIR. Exit 0 when all hold.
"""
import json
import os
import re
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from browser_check import browser, check, failures, wait_for  # noqa: E402
from layout_checks import axe_violations, layout_problems, set_viewport, text_rects  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

SIZES = [(1280, 800), (1920, 1080), (1080, 1920), (800, 480)]
# The board's language (--lang=es); the checks are the same in both.
LANG = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--lang=")), "en")

# What must be on the screen at all times, by selector.
ALWAYS = {
    "the stop's name": ".board-head h1",
    "the clock": ".board-head .clock",
    "the scan prompt": "#hint",
    "the language button": "#lang",
    "the plan button": "#plan",
}


def loaded(driver, before=0):
    return wait_for(driver, lambda d: int(d.execute_script(
        "return Number(document.getElementById('board').dataset.loads) || 0")) > before, 60,
        "the board did not load")


def on_screen(rect, width, height):
    return rect["left"] >= -1 and rect["top"] >= -1 and rect["right"] <= width + 1 and rect["bottom"] <= height + 1


def measure(driver, name, width, height, out):
    for problem in layout_problems(driver, name, min_font_px=16, fixed_display=True):
        check(False, problem)
    state = driver.execute_script("return document.getElementById('board').dataset.state")
    check(state in ("home", "stop"), f"{name}: the board is {state!r}, not shown")
    stop_shown = driver.find_elements(By.CSS_SELECTOR, "#board .board-source")
    for what, selector in ALWAYS.items():
        if what == "the plan button" and not stop_shown:
            continue  # no stop to plan from: the scan prompt
        rects = text_rects(driver, selector)
        check(rects and all(on_screen(r, width, height) for r in rects), f"{name}: {what} is not on the screen")
    for button in text_rects(driver, ".kiosk-bar button, .kiosk-bar a"):
        check(button["bottom"] - button["top"] >= 47.5 and button["right"] - button["left"] >= 47.5,
              f"{name}: the button {button['text']!r} is smaller than 48 px "
              f"({button['right'] - button['left']:.0f}x{button['bottom'] - button['top']:.0f})")
    for violation in axe_violations(driver):
        check(False, f"{name}: axe {violation[1]} {violation[0]}: {violation[2]} ({violation[3]} elements)")
    # A severe message takes the screen once: the band, not again among the alerts.
    severe = [r["text"].strip() for r in text_rects(driver, "#board .takeover p strong")]
    alerts = " ".join(r.get_attribute("textContent") for r in driver.find_elements(By.CSS_SELECTOR, ".alert-line"))
    for header in severe:
        check(header not in alerts, f"{name}: the severe message {header!r} is shown twice (band and alerts)")


def busiest(base, stops):
    """The stop, of `stops`, with the most routes and destinations due now, by the API's stop view."""
    best, most = stops[0], -1
    for stop in stops:
        with urllib.request.urlopen(f"{base}/api/v1/stops/{urllib.parse.quote(stop)}?lang=en") as answer:
            view = json.load(answer)
        groups = {(d["route"]["id"], d.get("destination") or d["headsign"]) for d in view.get("departures", [])}
        if len(groups) > most:
            best, most = stop, len(groups)
    print(f"busiest of {len(stops)} stops: {best} with {most} routes and destinations due")
    return best


def board(driver, base, out, name, stop, busy, takeover=False):
    """One stop's board at every size; returns the grouped rows seen at 1280x800."""
    rows_at_1280 = 0
    for width, height in SIZES:
        label = f"{name}-{width}x{height}"
        set_viewport(driver, width, height)
        driver.get(base + "/kiosk?lang=" + LANG + (f"&home={stop}" if stop else ""))
        loaded(driver)
        if takeover:
            for _ in range(30):
                if driver.find_elements(By.CSS_SELECTOR, "#board .takeover"):
                    break
                time.sleep(1)  # the server reads the messages file every 5 s: ask again
                driver.get(base + "/kiosk?lang=" + LANG + (f"&home={stop}" if stop else ""))
                loaded(driver)
            check(driver.find_elements(By.CSS_SELECTOR, "#board .takeover"), f"{label}: no severe message band")
        time.sleep(0.3)  # the page's own arrangement after the board arrived
        driver.save_screenshot(os.path.join(out, f"kiosk-{label}.png"))
        measure(driver, label, width, height, out)
        if not driver.find_elements(By.CSS_SELECTOR, "#board .board-head .board-source"):
            continue  # the scan prompt: no stop on screen
        source = text_rects(driver, ".board-source .source")
        check(source and source[0]["text"].strip(), f"{label}: no line says whether the times are live")
        groups = driver.find_elements(By.CSS_SELECTOR, "#board .rows .group")
        shown = [g for g in groups if g.is_displayed()]
        pages = int(driver.execute_script("return Number(document.getElementById('board').dataset.pages) || 1"))
        for row in groups:
            destination = row.find_element(By.CSS_SELECTOR, ".dest bdi").get_attribute("textContent").strip()
            route = row.find_element(By.CSS_SELECTOR, ".route .badge").get_attribute("textContent").strip()
            times = row.find_elements(By.CSS_SELECTOR, ".times .t")
            check(destination and route and times, f"{label}: a row without its route, destination or times: "
                  f"{route!r} {destination!r} {len(times)}")
        times = text_rects(driver, "#board .rows .group .times .t")
        if (width, height) == (1280, 800):
            rows_at_1280 = len(shown)
            small = [t for t in times if t["fontSize"] < 28]
            check(not small, f"{label}: times under 28 px: {small[:3]}")
        if len(groups) > len(shown):
            check(pages > 1, f"{label}: {len(groups)} rows, {len(shown)} shown and no other page")
            pager = text_rects(driver, ".pager")
            # "Page N of P": the board turns its pages by itself, so on a busy machine N may be past 1 already.
            check(pager and re.search(rf"\b[1-9]\d*\D+\b{pages}\b", pager[0]["text"]),
                  f"{label}: no page indicator for {pages} pages")
            # Every row is shown on some page: turn the pages by the page's own timer.
            seen = set()
            for _ in range(pages):
                seen.update(g.get_attribute("textContent") for g in groups if g.is_displayed())
                page = driver.execute_script("return document.getElementById('board').dataset.page")
                wait_for(driver, lambda d: d.execute_script(
                    "return document.getElementById('board').dataset.page") != page, 20,
                    f"{label}: the rows did not page on their own")
                for problem in layout_problems(driver, label + f" page {page}", 16, True):
                    check(False, problem)
            check(len(seen) == len(groups), f"{label}: {len(groups) - len(seen)} rows never shown on any page")
        alerts = driver.find_elements(By.CSS_SELECTOR, "#board .alert-line .alert")
        if alerts:
            showing = [a for a in alerts if a.is_displayed()]
            check(len(showing) == 1, f"{label}: {len(showing)} alerts on the alerts line at once, not one")
            if len(alerts) > 1 and showing:
                first = showing[0].get_attribute("textContent")
                wait_for(driver, lambda d: [a.get_attribute("textContent") for a in alerts if a.is_displayed()]
                         not in ([first], []), 20, f"{label}: the alerts line did not page")
                for problem in layout_problems(driver, label + " next alert", 16, True):
                    check(False, problem)
        print(f"{label}: {len(shown)} of {len(groups)} rows on screen, {pages} pages, {len(alerts)} alerts")
    if busy:
        check(rows_at_1280 >= 8, f"{name}: {rows_at_1280} rows at 1280x800 (at least 8 where the stop has them)")
    return rows_at_1280


def planner(driver, base, out, name, stop, letters):
    """The on-screen trip planner, with its own keys only: type, choose a match, see an option."""
    for width, height in SIZES:
        label = f"{name}-plan-{width}x{height}"
        set_viewport(driver, width, height)
        driver.get(base + "/kiosk?lang=" + LANG + (f"&home={stop}" if stop else ""))
        loaded(driver)
        driver.find_element(By.ID, "plan").click()
        for letter in letters:
            driver.find_element(By.CSS_SELECTOR, f'#planner .key[data-key="{letter}"]').click()
        # The list that answers every letter typed (an answer to an earlier letter may be shown first).
        answered = f'#planner-matches[data-query="{letters}"] .match'
        if not wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, answered), 30,
                        f"{label}: no stop matched {letters!r} typed on the screen's keys"):
            continue
        driver.save_screenshot(os.path.join(out, f"kiosk-{label}-choose.png"))
        for problem in layout_problems(driver, label + " choose", min_font_px=16, fixed_display=True):
            check(False, problem)
        for key in text_rects(driver, "#planner button"):
            check(key["bottom"] - key["top"] >= 47.5, f"{label}: the key {key['text']!r} is under 48 px tall")
        driver.find_elements(By.CSS_SELECTOR, answered)[0].click()
        if not wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#planner-plan .plan-result"), 60,
                        f"{label}: choosing a stop showed no plan"):
            continue
        options = driver.find_elements(By.CSS_SELECTOR, "#planner-plan .option")
        check(options or driver.find_elements(By.CSS_SELECTOR, "#planner-plan .none"),
              f"{label}: the plan has neither an option nor a sentence saying there is none")
        driver.save_screenshot(os.path.join(out, f"kiosk-{label}-result.png"))
        for problem in layout_problems(driver, label + " result", min_font_px=16, fixed_display=True):
            check(False, problem)
        for violation in axe_violations(driver):
            check(False, f"{label}: axe {violation[1]} {violation[0]}: {violation[2]} ({violation[3]} elements)")
        driver.find_element(By.ID, "planner-close").click()
        check(not driver.find_element(By.ID, "planner").is_displayed(), f"{label}: Close did not close the planner")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    busy = "--busy" in sys.argv
    letters = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--plan=")), "")
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, out, name = args[0].rstrip("/"), args[1], args[2]
    stops = ["" if stop == "-" else stop for stop in args[3:]] or [""]
    if "--pick-busiest" in sys.argv:
        stops = [busiest(base, stops)]
    os.makedirs(out, exist_ok=True)
    driver = browser(1280, 800)
    try:
        for index, stop in enumerate(stops):
            board(driver, base, out, f"{name}-{stop or 'home'}", stop, busy and index == 0, "--takeover" in sys.argv)
        if letters:
            planner(driver, base, out, name, stops[0], letters)
    finally:
        driver.quit()
    print(f"{len(failures)} failures; screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
