"""Drives headless Chromium over `/night` at 360 px: ticks the members named, presses Pick, and prints what the
page showed as one JSON object.

Usage: night.py BASE_URL MEMBER... [--minutes N] [--age CERT] [--unrated] [--streaming] [--genre NAME]
Tonight's choices are filled in as a user would: typed, ticked by their label, picked from the list.
The Swift test (NightPageTests) starts the server, has this run in the shared Chromium (host.py) with a deadline,
and judges the JSON.
"""

import json
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from pages import own_browser, settled, visit


def run(borrow, arguments):
    base, *rest = arguments
    members = [word for word in rest if not word.startswith("--") and not is_value(rest, word)]
    choices = {rest[i][2:]: (rest[i + 1] if i + 1 < len(rest) and not rest[i + 1].startswith("--") else True)
               for i in range(len(rest)) if rest[i].startswith("--")}
    with borrow(360, 800) as driver:
        before = visit(driver, base + "/night")
        offered = [box.get_attribute("value") for box in driver.find_elements(By.NAME, "member")]
        for box in driver.find_elements(By.NAME, "member"):
            if box.get_attribute("value") in members:
                # A click on the label, as a thumb would: the label is the box's tap target.
                driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}']").click()
        if "minutes" in choices:
            field = driver.find_element(By.ID, "minutes")
            field.clear()
            field.send_keys(choices["minutes"])
        for name in ("age", "genre"):
            if name in choices:
                Select(driver.find_element(By.ID, name)).select_by_value(choices[name])
        for name in ("unrated", "streaming"):
            if name in choices:
                driver.find_element(By.CSS_SELECTOR, f"label[for='{name}']").click()
        driver.find_element(By.CSS_SELECTOR, "form.night button[type=submit]").click()
        # The click starts a navigation and returns; wait for the answer's address before reading the page.
        WebDriverWait(driver, 60).until(lambda d: "member=" in d.current_url)
        after = visit(driver, driver.current_url)
        picks = [item.get_attribute("textContent").strip() for item in driver.find_elements(By.CSS_SELECTOR, "ol.picks li")]
        ticked = [box.get_attribute("value") for box in driver.find_elements(By.NAME, "member") if box.is_selected()]
        heading = [h2.get_attribute("textContent") for h2 in driver.find_elements(By.TAG_NAME, "h2")]
        limit = [p.get_attribute("textContent") for p in driver.find_elements(By.CSS_SELECTOR, "p.limit")]
        # Where the first pick starts on the screen as the answer opened (after the #picks jump).
        driver.get(driver.current_url)
        settled(driver)
        first = driver.find_elements(By.CSS_SELECTOR, "ol.picks li")
        top = driver.execute_script("return arguments[0].getBoundingClientRect().top;", first[0]) if first else None
        return {"before": before, "after": after, "offered": offered, "ticked": ticked,
                "picks": picks, "heading": heading, "limit": limit, "url": driver.current_url,
                "firstPickTop": top}


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


def is_value(words, word):
    """Whether `word` is the value of the option before it (for example the 100 of --minutes 100)."""
    index = words.index(word)
    return index > 0 and words[index - 1] in ("--minutes", "--age", "--genre")


if __name__ == "__main__":
    main()
