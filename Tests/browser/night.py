"""Drives headless Chromium over `/night` at 360 px: ticks the members named, presses Pick, and prints what the
page showed as one JSON object.

Usage: night.py BASE_URL MEMBER...
The Swift test (NightPageTests) starts the server, runs this with a deadline, and judges the JSON.
"""

import json
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pages import browser, visit


def main():
    base, *members = sys.argv[1:]
    driver = browser(360, 800)
    try:
        before = visit(driver, base + "/night")
        offered = [box.get_attribute("value") for box in driver.find_elements(By.NAME, "member")]
        for box in driver.find_elements(By.NAME, "member"):
            if box.get_attribute("value") in members:
                # A click on the label, as a thumb would: the label is the box's tap target.
                driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}']").click()
        driver.find_element(By.CSS_SELECTOR, "form.night button[type=submit]").click()
        # The click starts a navigation and returns; wait for the answer's address before reading the page.
        WebDriverWait(driver, 60).until(lambda d: "member=" in d.current_url)
        after = visit(driver, driver.current_url)
        picks = [item.get_attribute("textContent").strip() for item in driver.find_elements(By.CSS_SELECTOR, "ol.picks li")]
        ticked = [box.get_attribute("value") for box in driver.find_elements(By.NAME, "member") if box.is_selected()]
        heading = [h2.get_attribute("textContent") for h2 in driver.find_elements(By.TAG_NAME, "h2")]
        print(json.dumps({"before": before, "after": after, "offered": offered, "ticked": ticked,
                          "picks": picks, "heading": heading, "url": driver.current_url}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
