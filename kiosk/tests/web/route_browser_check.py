#!/usr/bin/env python3
"""The browse pages (issue 25) in headless Chromium, as browser_check.py drives the stop page.

Usage: route_browser_check.py BASE_URL OUTPUT_DIR
BASE_URL is a server on the sample network (`kiosk serve --port 0`). Checks: /routes at 390x844 without
horizontal scrolling; its search box finds "Cumbayá" typed without the accent (a plain form: it works with
JavaScript off, which this check turns off for that step); the route page opened from a stop page's route badge
shows the route map (loaded, the viewer's stop drawn) and the stops per direction linking back to their stop
pages; with the reader asking for more contrast every text is at 7:1 or more; axe-core finds no serious or
critical violation on /routes, the route page and an unknown route's page. Screenshots go to OUTPUT_DIR.
Exit 0 when all hold.
"""
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402  (the shared helpers: browser, axe_check, contrast script, failures)
from browser_check import axe_check, browser, check, image_loaded, wait_for, CONTRAST_SCRIPT  # noqa: E402


def no_horizontal_scroll(driver, name):
    scroll = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(scroll[0] <= scroll[1], f"{name} scrolls horizontally: {scroll[0]} > {scroll[1]} px")


def high_contrast(driver, name):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-contrast", "value": "more"}]})
    low = driver.execute_script(CONTRAST_SCRIPT, 7)
    for item in low[:10]:
        print(f"high contrast ({name}): {item}")
    check(not low, f"high contrast: {len(low)} texts below 7:1 on {name}")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def pages(base, out):
    driver = browser(390, 844)
    try:
        wait = WebDriverWait(driver, 30)
        # /routes: operators and routes; the search form works without JavaScript.
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        driver.get(base + "/routes?lang=en")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.routes.browse")))
        no_horizontal_scroll(driver, "/routes")
        driver.save_screenshot(os.path.join(out, "routes.png"))
        field = driver.find_element(By.ID, "rq")
        field.send_keys("cumbaya")
        field.submit()
        wait.until(EC.url_contains("q=cumbaya"))
        listed = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "ul.routes.browse li")]
        check(len(listed) == 1 and "Cumbayá" in listed[0], f"/routes search for 'cumbaya' listed {listed}")
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        driver.get(base + "/routes?lang=en")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.routes.browse")))
        axe_check(driver, "routes", out)
        high_contrast(driver, "/routes")

        # From a stop page's route badge to the route page.
        driver.get(base + "/s/1091?lang=en")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "a.route-link")))
        driver.find_element(By.CSS_SELECTOR, "ul.routes a.route-link").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ol.route-stops")))
        check("/r/" in driver.current_url and "from=" in driver.current_url,
              f"the route badge went to {driver.current_url}")
        driver.execute_script("document.querySelector('figure.map').scrollIntoView()")
        wait_for(driver, image_loaded("figure.map img"), 30, "route page: the route map did not load")
        here = driver.find_elements(By.CSS_SELECTOR, "ol.route-stops li.here a")
        check(len(here) >= 1, "route page: the viewer's stop is not marked in the stop list")
        stops = driver.find_elements(By.CSS_SELECTOR, "ol.route-stops li a")
        check(len(stops) > 2 and all("/s/" in s.get_attribute("href") for s in stops),
              "route page: the stops do not link to their stop pages")
        no_horizontal_scroll(driver, "the route page")
        driver.save_screenshot(os.path.join(out, "route-map.png"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(out, "route.png"))
        axe_check(driver, "route", out)
        high_contrast(driver, "the route page")
        # The map itself: the viewer's stop drawn in it.
        driver.get(base + "/api/v1/routes/L1/map.svg?from=1091&lang=en")
        check("this-stop" in driver.page_source, "route map: the viewer's stop is not drawn")
        driver.save_screenshot(os.path.join(out, "route-map-svg.png"))

        driver.get(base + "/r/L2?lang=en")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "h1")))
        check("Did you mean" in driver.page_source, "unknown route: no suggestions")
        axe_check(driver, "route-not-found", out)
    finally:
        driver.quit()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, out = sys.argv[1].rstrip("/"), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    pages(base, out)
    failures = browser_check.failures
    print(f"{len(failures)} failures; screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
