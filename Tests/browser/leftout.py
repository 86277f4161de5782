"""A `/night` page whose choices left movies out ("4 movies left out:", each count with its "Show them" link),
through headless Chromium: family.py's sweep at 360 and 1280 px, light and dark, with axe-core; the list as each
width lays it out; then each "Show them" followed, as a thumb would.

Usage: leftout.py BASE_URL PATH
Prints one JSON object; the Swift test (TonightPageTests) starts the server, runs this in the shared Chromium
(host.py) with a deadline, and judges it.
"""

import json
import sys

from selenium.webdriver.common.by import By

import family
from pages import own_browser


def left_out(driver):
    """The line above the list, and each count with its link's address and its size on the screen."""
    line = driver.find_elements(By.CSS_SELECTOR, "p.left-out")
    items = []
    for item in driver.find_elements(By.CSS_SELECTOR, "ul.left-out li"):
        links = item.find_elements(By.TAG_NAME, "a")
        box = links[0].rect if links else None
        items.append({
            "text": item.find_element(By.TAG_NAME, "bdi").get_attribute("textContent"),
            "link": links[0].text if links else None,
            "href": links[0].get_attribute("href") if links else None,
            "size": [box["width"], box["height"]] if box else None,
        })
    return {"line": line[0].get_attribute("textContent") if line else None, "items": items}


def picks(driver):
    return [h3.get_attribute("textContent").strip() for h3 in driver.find_elements(By.CSS_SELECTOR, "ol.picks h3")]


def run(borrow, arguments):
    base, path = arguments
    result = {"visits": []}
    with borrow(360, 900) as driver:
        family.sweep(driver, {"base": base, "pages": [path]}, family.axe_source(), False, result)
        result["leftOut"] = {}
        for width in (360, 1280):
            driver.set_window_size(width, 900)
            driver.get(base + path)
            result["leftOut"][str(width)] = left_out(driver)
        result["picks"] = picks(driver)
        driver.set_window_size(360, 900)
        result["shown"] = []
        for item in result["leftOut"]["360"]["items"]:
            if item["href"]:
                driver.get(base + path)
                link = driver.find_element(By.CSS_SELECTOR, "ul.left-out a[href='%s']" % item["href"].replace(base, ""))
                family.navigating(driver, link.click)
                result["shown"].append({"text": item["text"], "url": driver.current_url, "picks": picks(driver),
                                        "leftOut": left_out(driver)})
    return result


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


if __name__ == "__main__":
    main()
