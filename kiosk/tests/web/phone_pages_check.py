#!/usr/bin/env python3
"""The phone pages as a passenger sees them (issue 37), in headless Chromium at 390x844, 768x1024 and 1280x800.

Usage: phone_pages_check.py BASE_URL OUTPUT_DIR PAGES_JSON
PAGES_JSON names the pages of the network BASE_URL serves:
  {"name": "sample", "stop": "/s/1091", "plan": "/plan?from=1091&to=1011", "choose": "/plan?from=1091&to=El",
   "route_timetable": "/r/MQ-L1/timetable", "step_free_unknown": false}
(`choose` is a plan whose destination names several stops; `step_free_unknown` true when the feed says nothing
about step-free access.)

Checks on every page and size (layout_checks.layout_problems): no sideways scrolling, no texts overlapping, no text
cut by its box, no button label over two lines, text at 12 px or more; axe-core finds no violation at all.
Then what the issue asked: on the stop page the departures come before the alerts, the listen player, the map, the
routes and the nearby stops, every departure row names its destination and the routes are listed once per name and
destination, with links to the stop's timetable and the routes' pages; the plan form's radio buttons and check box
are small boxes that the keyboard reaches and switches (Tab, arrows, space); an option's timeline numbers its stops
as the map under it and shows no minutes over 59 alone ("165 min"); a name with several stops lists them to choose;
on the route timetable the stop column stays in place when the table scrolls sideways and every trip column has a
label. Screenshots go to OUTPUT_DIR. Exit 0 when all hold.
"""
import json
import os
import re
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layout_checks import axe_violations, layout_problems, set_viewport, text_rects  # noqa: E402

SIZES = [(390, 844), (768, 1024), (1280, 800)]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                 "--window-size=390,844"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(90)
    return driver


def full_screenshot(driver, path):
    """The whole page, not only the viewport: the viewport is made as tall as the page for the picture."""
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(height, 6000), "deviceScaleFactor": 1, "mobile": width < 700})
    driver.save_screenshot(path)


def look(driver, base, path, name, out, size):
    width, height = size
    set_viewport(driver, width, height)
    driver.get(base + path)
    driver.execute_script("return document.fonts && document.fonts.ready")
    label = f"{name} {width}x{height}"
    for problem in layout_problems(driver, label, min_font_px=12):
        check(False, problem)
    if width == 390:
        for rule, impact, help_text, count in axe_violations(driver):
            check(False, f"axe {label}: {impact} {rule}: {help_text} ({count} elements)")
    full_screenshot(driver, os.path.join(out, f"{name}-{width}.png"))
    set_viewport(driver, width, height)


def order_of(driver, selectors):
    """The top of the first visible element of each selector, in page order (None where there is none)."""
    tops = []
    for selector in selectors:
        rects = text_rects(driver, selector)
        tops.append(rects[0]["top"] + driver.execute_script("return window.scrollY") if rects else None)
    return tops


def stop_page(driver, base, pages, out):
    path = pages["stop"] + ("&" if "?" in pages["stop"] else "?") + "lang=en"
    for size in SIZES:
        look(driver, base, path, pages["name"] + "-stop", out, size)
    set_viewport(driver, 390, 844)
    driver.get(base + path)
    rows = driver.find_elements(By.CSS_SELECTOR, "table.departures tr")
    check(rows, f"{pages['name']} stop page: no departures")
    for row in rows:
        destination = row.find_elements(By.CSS_SELECTOR, ".destination")
        check(destination and destination[0].text.strip(), f"{pages['name']} stop page: a row without a destination: "
              f"{row.text[:60]!r}")
        times = row.find_elements(By.CSS_SELECTOR, "td.times .t")
        check(1 <= len(times) <= 3, f"{pages['name']} stop page: {len(times)} times in the row {row.text[:40]!r}")
    # The order the issue asks for: departures, alerts, listen, map, routes, nearby.
    tops = order_of(driver, ["#dep-h", "section.alerts", "p.listen", "figure.map", "#routes-h", "#near-h"])
    present = [t for t in tops if t is not None]
    check(present == sorted(present) and tops[0] is not None and tops[0] == present[0],
          f"{pages['name']} stop page: sections out of order (departures, alerts, listen, map, routes, nearby): {tops}")
    routes = [li.text.split(" · ")[0].strip() for li in driver.find_elements(By.CSS_SELECTOR, "ul.routes li")]
    check(len(routes) == len(set(routes)), f"{pages['name']} stop page: a route listed twice: {routes}")
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a")]
    check(any(re.search(r"/s/[^/]+/timetable", h or "") for h in links),
          f"{pages['name']} stop page: no link to the stop's timetable")
    check(any(re.search(r"/r/[^/?]+\?", h or "") for h in links),
          f"{pages['name']} stop page: no link to a route's page")
    check(any(re.search(r"/r/[^/]+/timetable", h or "") for h in links),
          f"{pages['name']} stop page: no link to a route's timetable")
    # The same page in Spanish lays out too, and so does the search page ("Search" on one line: it wrapped).
    look(driver, base, path.replace("lang=en", "lang=es"), pages["name"] + "-stop-es", out, (390, 844))
    for lang in ("en", "es"):
        look(driver, base, f"/?q=a&lang={lang}", pages["name"] + f"-search-{lang}", out, (390, 844))


def plan_page(driver, base, pages, out):
    path = pages["plan"] + "&lang=en"
    for size in SIZES:
        look(driver, base, path, pages["name"] + "-plan", out, size)
    set_viewport(driver, 390, 844)
    driver.get(base + path)
    options = driver.find_elements(By.CSS_SELECTOR, "section.option")
    check(options, f"{pages['name']} plan: no option")
    page = driver.find_element(By.TAG_NAME, "main").text
    long_minutes = [m for m in re.findall(r"\b(\d+) min\b", page) if int(m) >= 60
                    and not re.search(r"\d+ h " + m + " min", page)]
    check(not long_minutes, f"{pages['name']} plan: durations over an hour in minutes: {long_minutes}")
    for option in options:
        numbers = [int(n.text) for n in option.find_elements(By.CSS_SELECTOR, ".tl-mark .num")]
        check(numbers == list(range(1, len(numbers) + 1)),
              f"{pages['name']} plan: the timeline's stops are numbered {numbers}")
        check(len(option.find_elements(By.CSS_SELECTOR, "figure.map img")) <= 1,
              f"{pages['name']} plan: more than one map in an option")
        check(not option.find_elements(By.CSS_SELECTOR, "ol.points, ol.legs"),
              f"{pages['name']} plan: the steps are listed again")
        for ride in option.find_elements(By.CSS_SELECTOR, "li.tl-ride"):
            check(ride.find_elements(By.CSS_SELECTOR, ".badge") and ride.find_element(
                By.CSS_SELECTOR, ".destination").text.strip(), f"{pages['name']} plan: a ride without badge or "
                  f"destination: {ride.text[:60]!r}")
    # The form's radio buttons and check box: small boxes, reached and switched with the keyboard.
    for selector in ("input[type=radio]", "input[type=checkbox]"):
        for box in text_rects(driver, selector):
            size = (box["right"] - box["left"], box["bottom"] - box["top"])
            check(size[0] <= 32 and size[1] <= 32, f"{pages['name']} plan: {selector} drawn {size[0]:.0f}x"
                  f"{size[1]:.0f} px")
    leave = driver.find_element(By.CSS_SELECTOR, "input[value=leave]")
    arrive = driver.find_element(By.CSS_SELECTOR, "input[value=arrive]")
    box = driver.find_element(By.CSS_SELECTOR, "input[type=checkbox]")
    driver.execute_script("arguments[0].focus()", leave)
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    check(arrive.is_selected() and not leave.is_selected(), "plan form: the arrow key does not choose 'Arrive by'")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    focused = driver.switch_to.active_element
    check(focused == box, f"plan form: Tab from the radio buttons goes to {focused.get_attribute('outerHTML')[:80]}")
    was = box.is_selected()
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    check(box.is_selected() != was, "plan form: space does not switch the step-free box")
    for element in (leave, arrive, box):
        name = driver.execute_script(
            "var l = arguments[0].closest('label'); return l ? l.innerText.trim() : ''", element)
        check(name, f"plan form: {element.get_attribute('outerHTML')[:60]} has no label")
    # A name several stops share: a list to choose from, each with its code or routes, and a choice plans.
    choose = pages["choose"] + "&lang=en"
    look(driver, base, choose, pages["name"] + "-plan-choose", out, (390, 844))
    driver.get(base + choose)
    candidates = driver.find_elements(By.CSS_SELECTOR, "section.place-choice li a")
    check(len(candidates) >= 2, f"{pages['name']} plan: '{choose}' does not list the stops to choose from")
    check(not driver.find_elements(By.CSS_SELECTOR, "section.option"),
          f"{pages['name']} plan: '{choose}' planned without asking")
    if candidates:
        candidates[0].click()
        check(driver.find_elements(By.CSS_SELECTOR, "section.option") or "No journey" in driver.page_source,
              f"{pages['name']} plan: choosing a stop did not plan ({driver.current_url})")
    # Step-free on a feed that says nothing about it: the page says the data does not tell.
    look(driver, base, path + "&wheelchair=true", pages["name"] + "-plan-step-free", out, (390, 844))
    text = driver.find_element(By.TAG_NAME, "main").text
    if pages.get("step_free_unknown"):
        check("does not say which stops or vehicles are step-free" in text,
              f"{pages['name']} plan: step-free on a feed without the data does not say so")
        check("No step-free journey found" not in text, f"{pages['name']} plan: 'no step-free journey' without data")


def timetables(driver, base, pages, out):
    path = pages["route_timetable"] + ("&" if "?" in pages["route_timetable"] else "?") + "lang=en"
    for size in SIZES:
        look(driver, base, path, pages["name"] + "-route-timetable", out, size)
    set_viewport(driver, 390, 844)
    driver.get(base + path)
    heads = driver.find_elements(By.CSS_SELECTOR, "table.tt.route thead th")
    check(len(heads) > 1 and all(h.text.strip() for h in heads[1:]),
          f"{pages['name']} route timetable: unlabelled trip columns")
    check(driver.find_elements(By.CSS_SELECTOR, "header.bar a.home"),
          f"{pages['name']} route timetable: not the site's header")
    first = text_rects(driver, "table.tt.route tbody th")[0]
    driver.execute_script("document.querySelector('.scroll').scrollLeft = 400")
    after = text_rects(driver, "table.tt.route tbody th")[0]
    check(abs(after["left"] - first["left"]) <= 2,
          f"{pages['name']} route timetable: the stop column moves with the times ({first['left']} → {after['left']})")
    driver.save_screenshot(os.path.join(out, pages["name"] + "-route-timetable-scrolled-390.png"))
    stop = pages["stop"].split("?")[0] + "/timetable?lang=en"
    for size in SIZES:
        look(driver, base, stop, pages["name"] + "-stop-timetable", out, size)
    check(driver.find_elements(By.CSS_SELECTOR, "header.bar a.home"),
          f"{pages['name']} stop timetable: not the site's header")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    base, out, pages = sys.argv[1].rstrip("/"), sys.argv[2], json.loads(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    driver = browser()
    try:
        stop_page(driver, base, pages, out)
        plan_page(driver, base, pages, out)
        timetables(driver, base, pages, out)
    finally:
        driver.quit()
    print(f"{len(failures)} failures; screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
