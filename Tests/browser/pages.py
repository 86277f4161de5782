"""Drives headless Chromium over the pages `mustc serve` answers, and prints what it found as one JSON object.

Usage: pages.py BASE_URL MEMBER_PATH MOVIE_PATH HOSTILE_PATH... [--screenshots DIR]
The Swift test (ServeBrowserTests) starts the server, has this run in the shared Chromium (host.py) with a deadline,
and judges the JSON. `own_browser` is the Chromium of a run from the command line; `browser`, the options of each.
"""

import contextlib
import json
import sys

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


# Chromium's headless shell (Debian's chromium-headless-shell: the same Blink and V8 as `chromium`, without the
# desktop browser around them). Measured against `chromium --headless=new`, each with chromedriver and Selenium:
# a start and quit 0.39 CPU-seconds against 0.82, a load of the family's page 48 ms against 90, a whole signed-in
# sweep of the family's pages with axe-core 7.4 against 7.9, and the whole test suite 31-37 s against 41-48 s on 2
# cores. It lays out, scrolls, emulates the colour scheme, raises dialogs and logs console errors as `chromium`
# does; its window is all viewport, so a window of 360 by 640 shows 360 by 640 CSS pixels.
SHELL = "/usr/lib/chromium/chromium-headless-shell"


def browser(width, height):
    """Chromium's headless shell (SHELL), the window `width` by `height` CSS pixels of page.

    The pages hold no script: the only JavaScript is the tests' own, axe-core most of it, run afresh in each new
    document. Without V8's optimising compiler (`--no-opt`), 20 loads of the family's pages with 40 axe-core runs
    took 12.9 CPU-seconds (Chromium, driver and script) instead of 14.3, in the same wall time (medians of 6 runs):
    what it compiled on background threads cost more than it saved."""
    options = Options()
    options.binary_location = SHELL
    for argument in ("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1",
                     "--js-flags=--no-opt"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@contextlib.contextmanager
def own_browser(width, height, first=False):
    """A Chromium of this run's own, quit at the end: `borrow` for a script run from the command line (`first`, the
    shared pool's priority, means nothing here)."""
    driver = browser(width, height)
    try:
        yield driver
    finally:
        driver.quit()


def settled(driver):
    """Waits two frames: what a loaded page still does in its rendering steps (the `autofocus` element focused and
    scrolled into view, a restored scroll position) is done before a script reads where things are. Read at once, one
    loaded whole run found the family page's notice after an edit with its bottom at 673 px, 301 px lower than
    where runs alone find it (372)."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def dialog_opened(driver):
    try:
        driver.switch_to.alert.dismiss()
        return True
    except NoAlertPresentException:
        return False


def visit(driver, url):
    """Loads a page; returns what every page is judged on."""
    try:
        driver.get(url)
    except UnexpectedAlertPresentException:
        return {"url": url, "dialog": True}
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
        " document.body.scrollWidth];")
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return {
        "url": url,
        "dialog": dialog_opened(driver),
        "scrollWidth": max(widths[0], widths[2]),
        "clientWidth": widths[1],
        "consoleErrors": errors,
        "h1": driver.find_element(By.TAG_NAME, "h1").get_attribute("textContent"),
        # Posters are this server's own images; any other <img> would be markup that should have been text.
        "images": len(driver.find_elements(By.CSS_SELECTOR, "img:not(.poster)")),
        "posters": len(driver.find_elements(By.CSS_SELECTOR, "img.poster")),
        "scripts": len(driver.find_elements(By.TAG_NAME, "script")),
    }


def member_rows(driver):
    rows = []
    for card in driver.find_elements(By.CSS_SELECTOR, "li.card"):
        def text(selector):
            found = card.find_elements(By.CSS_SELECTOR, selector)
            return found[0].get_attribute("textContent").strip() if found else None
        rows.append({
            "title": text("h2"), "year": text(".year"), "rating": text(".rating"), "move": text(".move"),
            "votes": text(".votes"),
            "sparkLabel": [svg.get_attribute("aria-label") for svg in card.find_elements(By.TAG_NAME, "svg")],
        })
    return rows


def movie_charts(driver):
    charts = []
    for figure in driver.find_elements(By.CSS_SELECTOR, "figure.chart"):
        svg = figure.find_element(By.TAG_NAME, "svg")
        charts.append({
            "caption": figure.find_element(By.TAG_NAME, "figcaption").get_attribute("textContent"),
            "points": figure.find_element(By.TAG_NAME, "polyline").get_attribute("points"),
            "height": svg.size["height"],
            "label": svg.get_attribute("aria-label"),
            "alternative": figure.find_element(By.CSS_SELECTOR, "details .figures-text").get_attribute("textContent"),
            "detailsOpen": figure.find_element(By.TAG_NAME, "details").get_attribute("open") is not None,
            "ticks": [tick.get_attribute("textContent") for tick in figure.find_elements(By.CSS_SELECTOR, ".ticks span")],
        })
    return charts


def run(borrow, arguments):
    arguments = list(arguments)
    screenshots = None
    if "--screenshots" in arguments:
        index = arguments.index("--screenshots")
        screenshots = arguments[index + 1]
        del arguments[index:index + 2]
    base, member, movie, *hostile = arguments
    result = {"pages": []}
    with borrow(360, 800) as driver:
        for path in ["/", member, member + "?sort=rating", movie, "/changes?since=30d", "/status"] + hostile:
            page = visit(driver, base + path)
            if path == member:
                page["rows"] = member_rows(driver)
            if path == movie:
                page["charts"] = movie_charts(driver)
            result["pages"].append(page)
        if screenshots:
            driver.set_window_size(390, 1100)
            for name, path in (("member", member), ("movie", movie)):
                driver.get(base + path)
                driver.save_screenshot(f"{screenshots}/{name}.png")
    return result


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


if __name__ == "__main__":
    main()
