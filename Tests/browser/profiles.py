""""Who's watching?" in headless Chromium: axe-core (target-size included) at 360 and 1280 px, light and dark, with
the page's widths and small targets; then by keyboard alone: Tab until a profile's button has the focus, Enter.

Usage: profiles.py BASE_URL NAME
NAME is the profile chosen by keyboard (one without a PIN). One JSON object is printed; the Swift test
(ProfilesBrowserTests) starts the server, has this run in the shared Chromium (host.py) with a deadline, and judges
it.
"""

import json
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from family import SMALL_TARGETS, axe_source, navigating, run_axe, scheme
from pages import dialog_opened, own_browser

LAID_OUT = ("return {widths: [document.documentElement.scrollWidth, document.documentElement.clientWidth],"
            " small: (() => {" + SMALL_TARGETS + "})(), h1: document.querySelector('h1').textContent,"
            " buttons: Array.from(document.querySelectorAll('.profiles .profile')).map(e => e.textContent.trim())};")

FOCUSED = """
const e = document.activeElement;
const style = getComputedStyle(e);
return {tag: e.tagName, text: (e.textContent || '').trim(),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0};
"""


def run(borrow, arguments):
    base, name = arguments
    result = {"visits": []}
    with borrow(360, 900) as driver:
        driver.set_script_timeout(60)
        injected = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                          {"source": axe_source()})["identifier"]
        try:
            # Signed out, `/` is "Who's watching?" too.
            for path in ("/profiles", "/"):
                driver.get(base + path)
                errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
                for width in (360, 1280):
                    driver.set_window_size(width, 900)
                    for colours in ("light", "dark"):
                        scheme(driver, colours)
                        axe = run_axe(driver)
                        laid = driver.execute_script(LAID_OUT)
                        result["visits"].append({
                            "url": path, "width": width, "scheme": colours, "error": axe.get("error"),
                            "violations": axe.get("violations", []), "rules": len(axe.get("rules", [])),
                            "scrollWidth": laid["widths"][0], "clientWidth": laid["widths"][1],
                            "small": laid["small"], "h1": laid["h1"], "buttons": laid["buttons"],
                            "dialog": dialog_opened(driver), "consoleErrors": errors})
            # The names are text: no member's name became an element.
            result["images"] = driver.execute_script("return document.images.length;")
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": injected})
        scheme(driver, "light")

        # By keyboard alone: Tab from the top of the page to the profile's button, then Enter.
        driver.set_window_size(1280, 900)
        driver.get(base + "/profiles")
        focused, presses = None, 0
        while presses < 40:
            ActionChains(driver).send_keys(Keys.TAB).perform()
            presses += 1
            focused = driver.execute_script(FOCUSED)
            if focused["tag"] == "BUTTON" and name in focused["text"]:
                break
        chosen = focused is not None and focused["tag"] == "BUTTON" and name in focused["text"]
        if chosen:
            navigating(driver, lambda: ActionChains(driver).send_keys(Keys.ENTER).perform())
        bar = driver.find_elements(By.CSS_SELECTOR, "form.session")
        result["keyboard"] = {"presses": presses, "focused": focused, "reached": chosen,
                              "url": driver.current_url,
                              "bar": bar[0].get_attribute("textContent").strip() if bar else None}
    return result


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


if __name__ == "__main__":
    main()
