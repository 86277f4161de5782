"""Loads pages of `mustc serve` in headless Chromium at phone width and reports what their posters did, as JSON.

Usage: posters.py BASE_URL PATH... [--width 360] [--height 800]
For each page: the poster requests made before any scrolling, then (after scrolling to the end so every lazy image
loads) each image's naturalWidth and address, the placeholders drawn, every resource the page asked for, and the
console's errors. PostersBrowserTests judges it; contrib/benchmarks/posters prints its counts.
"""

import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def browser(width, height):
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=2"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


RESOURCES = "return performance.getEntriesByType('resource').map(e => e.name);"


def settle(driver, seconds=0.5):
    """Waits until no new resource has been asked for during `seconds` (at most 15 s in all)."""
    deadline = time.time() + 15
    count = -1
    while time.time() < deadline:
        now = len(driver.execute_script(RESOURCES))
        if now == count:
            return
        count = now
        time.sleep(seconds)


def visit(driver, url):
    driver.get(url)
    settle(driver)
    before = [name for name in driver.execute_script(RESOURCES) if "/posters/" in name]
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    for y in range(0, height + 800, 400):
        driver.execute_script(f"window.scrollTo(0, {y});")
        time.sleep(0.05)
    deadline = time.time() + 20
    while time.time() < deadline and not driver.execute_script(
            "return Array.from(document.images).every(i => i.complete);"):
        time.sleep(0.1)
    settle(driver)
    images = driver.execute_script(
        "return Array.from(document.images).map(i => ({src: i.getAttribute('src'), current: i.currentSrc,"
        " naturalWidth: i.naturalWidth, width: i.getAttribute('width'), height: i.getAttribute('height'),"
        " loading: i.getAttribute('loading'), alt: i.alt}));")
    placeholders = [element.get_attribute("aria-label")
                    for element in driver.find_elements(By.CSS_SELECTOR, ".poster.placeholder")]
    return {
        "url": url,
        "postersBeforeScroll": len(set(before)),
        "images": images,
        "placeholders": placeholders,
        "resources": driver.execute_script(RESOURCES),
        "consoleErrors": [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"],
        "htmlBytes": len(driver.execute_script("return document.documentElement.outerHTML;").encode()),
    }


def run(borrow, arguments):
    """In the shared pool (host.py): a pooled Chromium drawn at twice the pixels through DevTools' device metrics,
    at the size `main`'s own Chromium has, and given back as it was. A Chromium of its own had cost a start (about
    0.6 CPU-seconds, with its python and chromedriver besides) for two pages."""
    base, *paths = arguments
    with borrow(360, 800) as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": False})
        try:
            return {"pages": [visit(driver, base + path) for path in paths]}
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def main():
    arguments = sys.argv[1:]
    size = {"--width": 360, "--height": 800}
    for name in list(size):
        if name in arguments:
            index = arguments.index(name)
            size[name] = int(arguments[index + 1])
            del arguments[index:index + 2]
    base, *paths = arguments
    driver = browser(size["--width"], size["--height"])
    try:
        print(json.dumps({"pages": [visit(driver, base + path) for path in paths]}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
