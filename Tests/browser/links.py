"""Follows links as a browser does: on the family page, clicks the link named each NAME and reports where it led.

Usage: links.py BASE_URL NAME...
Prints one JSON object: {NAME: {"path": the address the browser opened, "h1": that page's heading}}. The Swift
test (ServeHardeningTests) starts the server, runs this with a deadline, and judges the JSON.
"""

import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def label(link):
    """The member's name a link shows: a member card's `.who` (the card also holds posters and a count)."""
    who = link.find_elements(By.CSS_SELECTOR, ".who")
    return (who[0] if who else link).get_attribute("textContent").strip()


def main():
    base, names = sys.argv[1], sys.argv[2:]
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    found = {}
    try:
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
    finally:
        driver.quit()
    print(json.dumps(found))


if __name__ == "__main__":
    main()
