"""Follows links as a browser does: on the family page, clicks the link named each NAME and reports where it led.

Usage: links.py BASE_URL NAME...
Prints one JSON object: {NAME: {"path": the address the browser opened, "h1": that page's heading}}. The Swift
test (ServeHardeningTests) starts the server, has this run in the shared Chromium (host.py) with a deadline, and
judges the JSON.
"""

import json
import sys

from selenium.webdriver.common.by import By

from pages import own_browser


def label(link):
    """The member's name a link shows: a member card's `.who` (the card also holds posters and a count)."""
    who = link.find_elements(By.CSS_SELECTOR, ".who")
    return (who[0] if who else link).get_attribute("textContent").strip()


def run(borrow, arguments):
    base, names = arguments[0], arguments[1:]
    found = {}
    with borrow(800, 600) as driver:
        driver.set_page_load_timeout(60)
        for name in names:
            driver.get(base)
            links = [link for link in driver.find_elements(By.CSS_SELECTOR, "a[href^='/members/']")
                     if label(link) == name]
            if not links:
                found[name] = {"path": None, "h1": None}
                continue
            href = links[0].get_attribute("href")
            links[0].click()
            found[name] = {
                "href": href,
                "path": driver.execute_script("return location.pathname;"),
                "h1": driver.find_element(By.TAG_NAME, "h1").get_attribute("textContent").strip(),
            }
    return found


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


if __name__ == "__main__":
    main()
