"""The family's pages as a family member meets them, driven through headless Chromium.

Usage: family.py PLAN_JSON
PLAN_JSON names the server (`base`), the family password, the pages to sweep, the member pages to read and the
edits to make. Every page is checked at 360 and 1280 px, light and dark, signed out and signed in; axe-core runs on
each (target-size included) and the rules it checked are printed. The signed-out and signed-in sweeps run side by
side in two Chromiums (the shared ones of host.py, under the tests); beside them, in a third, signed in at 360 px,
the edits are made from the cards on `editBase`, a second server over a copy of the family's database. One JSON
object is printed; the Swift test (FamilyPageTests) judges it against the binary's own `ratings --format json`.
"""

import concurrent.futures
import functools
import importlib.util
import json
import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from pages import dialog_opened, own_browser, settled

INSTALL = "axe-core with target-size is missing: pip install -r contrib/packages/python.txt (contrib/test.sh does)"


@functools.cache
def axe_source():
    """axe.min.js from a PyPI package that ships axe-core 4.x (target-size is 4.7 and later)."""
    for package in ("axe_playwright_python", "axe_selenium_python"):
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            continue
        folder = os.path.dirname(spec.origin)
        for root, _, files in os.walk(folder):
            if "axe.min.js" in files:
                source = open(os.path.join(root, "axe.min.js"), encoding="utf-8").read()
                if "target-size" in source:
                    return source
    print(INSTALL, file=sys.stderr)
    sys.exit(3)


SMALL_TARGETS = """
const out = [];
for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary')) {
  const r = e.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) continue;
  if (e.closest('details:not([open])') && e.tagName !== 'SUMMARY') continue;
  if (r.right <= 0 || r.left >= innerWidth) continue;
  if (e.type === 'checkbox' && e.labels && e.labels.length) {
    const l = e.labels[0].getBoundingClientRect();
    if (l.width >= 43.5 && l.height >= 43.5) continue;
  }
  if (r.width < 43.5 || r.height < 43.5)
    out.push(e.tagName + ' "' + (e.textContent || e.name || '').trim().slice(0, 30) + '" '
      + Math.round(r.width) + 'x' + Math.round(r.height));
}
return out;
"""

BDI = """
const raw = /[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]/;
const shown = [], outside = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let rawFound = raw.test(document.title);
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (raw.test(node.data)) rawFound = true;
  if (/\\\\u(202[A-E]|206[6-9]|00[01][0-9A-F]|007F|008[0-9A-F]|009[0-9A-F])/.test(node.data)) {
    (node.parentElement.closest('bdi') ? shown : outside).push(node.data.trim().slice(0, 60));
  }
}
return {raw: rawFound, shown: shown, outside: outside};
"""


def run_axe(driver, only=None):
    """axe-core over the document as it is laid out now (injected once per load by `sweep`); `only`, rule ids to
    run instead of every rule."""
    return driver.execute_async_script("""
const only = arguments[0], done = arguments[arguments.length - 1];
const options = {rules: {'target-size': {enabled: true}}, resultTypes: ['violations']};
if (only) options.runOnly = {type: 'rule', values: only};
axe.run(document, options)
  .then(r => done({version: axe.version, violations: r.violations.map(v => ({id: v.id,
      nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').slice(0, 200))})),
    rules: [].concat(r.passes, r.violations, r.incomplete, r.inapplicable).map(x => x.id)}))
  .catch(e => done({error: String(e)}));
""", only)


# What the dark scheme changes besides colours: every declaration of a `prefers-color-scheme` block that is not a
# colour (custom properties included), and any element whose `media` names the scheme. Empty, the dark layout is
# the light one and only axe's colour rules can judge it otherwise; `blocks` says the scheme's CSS was found at all.
# The drawn space between "Add to" and the member's name in each suggestion card's button, in px: a flex button
# whose label were laid out as separate items would lose it ("Add toClaire's list").
ADD_GAPS = """
return Array.from(document.querySelectorAll('.new-actions button bdi')).map(function (name) {
  var before = name.previousSibling;
  if (!before || before.nodeType !== Node.TEXT_NODE) { return -1; }
  var range = document.createRange();
  range.setStart(before, 0);
  range.setEnd(before, before.textContent.replace(/\\s+$/, '').length);
  return name.getBoundingClientRect().left - range.getBoundingClientRect().right;
});
"""

DARK_CHANGES = """
const others = [];
let blocks = 0;
for (const sheet of document.styleSheets) {
  for (const rule of sheet.cssRules) {
    if (!(rule instanceof CSSMediaRule) || !/prefers-color-scheme/.test(rule.conditionText)) continue;
    blocks += 1;
    for (const inner of rule.cssRules) {
      if (!(inner instanceof CSSStyleRule)) { others.push(inner.cssText.slice(0, 80)); continue; }
      for (const name of inner.style) {
        const value = inner.style.getPropertyValue(name).trim();
        if (!CSS.supports('color', value)) others.push(inner.selectorText + ' ' + name + ': ' + value);
      }
    }
  }
}
for (const e of document.querySelectorAll('[media*=prefers-color-scheme]')) others.push(e.outerHTML.slice(0, 80));
return {blocks: blocks, others: others};
"""


def navigating(driver, action):
    old = driver.find_element(By.TAG_NAME, "html")
    action()
    WebDriverWait(driver, 60).until(expected_conditions.staleness_of(old))
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.readyState") == "complete")


def sign_in(driver, base, password):
    driver.get(base + "/signin")
    field = driver.find_element(By.NAME, "password")
    field.send_keys(password)
    navigating(driver, field.submit)


def scheme(driver, name):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": name}]})


def colour_rules(driver, checked, known={}):
    """The rules of `checked` (a light run's) that judge colours: axe-core's `cat.color` tag (read once a run)."""
    if "colour" not in known:
        known["colour"] = driver.execute_script("return axe.getRules(['cat.color']).map(r => r.ruleId);")
    return [rule for rule in checked if rule in known["colour"]]


# What each visit reads of the page besides axe-core, in one call: the widths, the small targets, the suggestion
# cards and their buttons, and (in the dark scheme, `arguments[0]`) DARK_CHANGES.
LAID_OUT = ("const widths = [document.documentElement.scrollWidth, document.documentElement.clientWidth];\n"
            "const small = (() => {" + SMALL_TARGETS + "})();\n"
            "const dark = arguments[0] ? (() => {" + DARK_CHANGES + "})() : null;\n"
            "return {widths: widths, small: small, dark: dark,"
            " newCards: document.querySelectorAll('ol.suggestions li').length,"
            " addGaps: (() => {" + ADD_GAPS + "})(),"
            " newButtons: document.querySelectorAll('.new-actions button').length};")


def sweep(driver, plan, source, signed_in, result):
    """Every page at 360 and 1280 px, light and dark. The pages hold no script, so one load of a page is laid out
    again at each width and styled again in each scheme (as a phone turned or a theme switched would) rather than
    loaded four times; axe-core, the widths and the small targets are read in each of the four. In the dark scheme
    axe-core runs only the colour rules (`cat.color`) of the light run just before: the dark scheme changes only
    colours (DARK_CHANGES, which the test checks), so every other rule would judge the same document laid out the
    same way again (the test's CPU fell from 66 to 58 s; color-contrast is most of axe-core's time). axe-core is
    put into each document as it loads (DevTools' addScriptToEvaluateOnNewDocument, for this sweep only): sent
    once, not with each of the pages' loads, where its half a megabyte was most of a load's time."""
    driver.set_script_timeout(60)
    injected = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})["identifier"]
    try:
        sweep_pages(driver, plan, signed_in, result)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": injected})


def sweep_pages(driver, plan, signed_in, result):
    for path in plan["pages"]:
        started = time.monotonic()
        driver.set_window_size(360, 900)
        scheme(driver, "light")
        driver.get(plan["base"] + path)
        result["loadSeconds"] = result.get("loadSeconds", 0) + time.monotonic() - started
        text = driver.find_element(By.TAG_NAME, "body").get_attribute("textContent")
        loaded = {
            "url": path, "signedIn": signed_in,
            "internal": [word for word in ("newData", "noData") if word in text],
            "text": text if path in ("/", "/settings") else None,
            "title": driver.title, "dialog": dialog_opened(driver),
            "bytes": len(driver.page_source.encode("utf-8")),
            # The document's own status is not an error of the page: /members/Nobody is a 404 by design.
            "consoleErrors": [entry["message"] for entry in driver.get_log("browser")
                              if entry["level"] == "SEVERE"
                              and not entry["message"].startswith(driver.current_url + " - ")],
        }
        for width in (360, 1280):
            driver.set_window_size(width, 900)
            checked = []
            for colours in ("light", "dark"):
                scheme(driver, colours)
                started = time.monotonic()
                axe = run_axe(driver, colour_rules(driver, checked) if colours == "dark" else None)
                checked = axe.get("rules", [])
                spent = time.monotonic() - started
                result["axeSeconds"] = result.get("axeSeconds", 0) + spent
                result["axeDarkSeconds"] = result.get("axeDarkSeconds", 0) + (spent if colours == "dark" else 0)
                result["axeVersion"] = axe.get("version")
                result["rules"] = sorted(set(result.get("rules", [])) | set(axe.get("rules", [])))
                laid = driver.execute_script(LAID_OUT, colours == "dark")
                result["visits"].append(dict(
                    loaded, width=width, scheme=colours, error=axe.get("error"),
                    violations=axe.get("violations", []), scrollWidth=laid["widths"][0],
                    clientWidth=laid["widths"][1], small=laid["small"], newCards=laid["newCards"],
                    newButtons=laid["newButtons"], addGaps=laid["addGaps"], darkRules=axe.get("rules", []) if colours == "dark" else None,
                    darkChanges=laid["dark"]))
    scheme(driver, "light")


def cards(driver):
    found = []
    for card in driver.find_elements(By.CSS_SELECTOR, "li.card"):
        def text(selector):
            parts = card.find_elements(By.CSS_SELECTOR, selector)
            return parts[0].get_attribute("textContent").strip() if parts else None
        found.append({"title": text("h2"), "year": text(".year"), "rating": text(".rating"),
                      "move": text(".move"), "votes": text(".votes"), "mark": text(".mark")})
    return found


def paging(driver, plan):
    pages = []
    driver.get(plan["base"] + plan["big"])
    while True:
        links = driver.find_elements(By.CSS_SELECTOR, "a[rel=next]")
        pages.append({"url": driver.current_url, "cards": len(driver.find_elements(By.CSS_SELECTOR, "li.card")),
                      "previous": bool(driver.find_elements(By.CSS_SELECTOR, "a[rel=prev]")),
                      "count": driver.find_element(By.CSS_SELECTOR, "p.count").text})
        if not links or len(pages) > 10:
            return pages
        navigating(driver, links[0].click)


def card_named(driver, title):
    for card in driver.find_elements(By.CSS_SELECTOR, "li.card"):
        if card.find_element(By.TAG_NAME, "h2").get_attribute("textContent").strip() == title:
            return card
    raise RuntimeError("no card titled %r on %s" % (title, driver.current_url))


def after_edit(driver):
    """The notice the edit left: its text, whether it is on the first screen and has the focus."""
    settled(driver)
    notices = driver.find_elements(By.CSS_SELECTOR, ".notice")
    if not notices:
        return {"text": None}
    box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON();", notices[0])
    return {"text": notices[0].text, "top": box["top"], "bottom": box["bottom"],
            "screen": driver.execute_script("return innerHeight;"),
            "focused": driver.execute_script("return document.activeElement === arguments[0];", notices[0]),
            "url": driver.current_url}


def edits(driver, plan):
    base, member, done = plan["base"], plan["member"], {}
    # A phone's page under its status and address bars: 640 px high (a window of 800 in `chromium --headless=new`
    # had shown 657), so each notice must fit the first screen of a small phone.
    driver.set_window_size(360, 640)
    driver.get(base + member)
    card = card_named(driver, plan["watch"])
    navigating(driver, card.find_element(By.XPATH, ".//button[normalize-space()='Watched today']").click)
    done["watched"] = after_edit(driver)
    card = card_named(driver, plan["rate"]["title"])
    card.find_element(By.TAG_NAME, "select").send_keys(str(plan["rate"]["rating"]))
    navigating(driver, card.find_element(By.XPATH, ".//button[normalize-space()='Rate']").click)
    done["rated"] = after_edit(driver)
    card = card_named(driver, plan["remove"])
    navigating(driver, card.find_element(By.PARTIAL_LINK_TEXT, "Remove").click)
    done["confirmation"] = driver.find_element(By.TAG_NAME, "h1").text
    navigating(driver, driver.find_element(By.CSS_SELECTOR, "main form[action$='/remove'] button[type=submit]").click)
    done["removed"] = after_edit(driver)
    field = driver.find_element(By.ID, "add-movie")
    field.send_keys(plan["ask"])
    navigating(driver, field.submit)
    done["asked"] = after_edit(driver)
    done["answers"] = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".notice button")]
    chosen = [b for b in driver.find_elements(By.CSS_SELECTOR, ".notice button") if b.text == plan["answer"]]
    if chosen:
        navigating(driver, chosen[0].click)
        done["answered"] = after_edit(driver)
    evening(driver, plan, done)
    return done


def evening(driver, plan, done):
    """A suggestion watched from /night; then on the family page "How was it?" rated for `plan["howWas"]`, whose
    notice must come back beside its night, and the suggestion's night taken back with its Undo."""
    base = plan["base"]
    driver.get(base + plan["night"])
    card = driver.find_elements(By.CSS_SELECTOR, "ol.suggestions li")[0]
    done["newTitle"] = card.find_element(By.CSS_SELECTOR, "h3 bdi").get_attribute("textContent")
    navigating(driver, card.find_element(By.XPATH, ".//button[normalize-space()=\"We're watching this\"]").click)
    done["watchedNew"] = after_edit(driver)
    driver.get(base + "/")
    night = driver.find_element(By.XPATH, "//ul[@class='nights']/li[.//p[normalize-space()=%r]]" % plan["howWas"])
    heading = night.find_element(By.TAG_NAME, "h3").get_attribute("id")
    form = night.find_element(By.CSS_SELECTOR, "form.rate-night")
    form.find_element(By.TAG_NAME, "select").send_keys("8")
    navigating(driver, form.find_element(By.XPATH, ".//button[normalize-space()='Rate']").click)
    done["ratedNight"] = after_edit(driver)
    # The notice follows the night's heading in the page, not the page's top.
    done["ratedNight"]["afterHeading"] = driver.execute_script(
        "const h = document.getElementById(arguments[0]), n = document.querySelector('.notice');"
        "return !!(h && n && (h.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING));", heading)
    latest = driver.find_element(By.CSS_SELECTOR, "ul.nights li")
    done["undoneLine"] = latest.find_element(By.TAG_NAME, "h3").get_attribute("textContent")
    navigating(driver, latest.find_element(By.XPATH, ".//button[normalize-space()='Undo']").click)
    done["undone"] = after_edit(driver)


def signed_out(borrow, plan, source):
    """The signed-out sweep, then what a visitor reads: the cards, the paging, the hostile titles."""
    result = {"visits": []}
    asked = time.monotonic()
    with borrow(360, 900, first=True) as driver:
        started = time.monotonic()
        result["waited"] = started - asked
        sweep(driver, plan, source, False, result)
        result["sweptAfter"] = time.monotonic() - started
        driver.set_window_size(1280, 900)
        result["cards"] = {}
        for path in plan["read"]:
            driver.get(plan["base"] + path)
            result["cards"][path] = cards(driver)
        result["paging"] = paging(driver, plan)
        result["bdi"] = {}
        for path in plan["hostile"]:
            driver.get(plan["base"] + path)
            result["bdi"][path] = driver.execute_script(BDI)
        result["readAfter"] = time.monotonic() - started
    return result


def signed_in(borrow, plan, source):
    """The signed-in sweep."""
    result = {"visits": []}
    asked = time.monotonic()
    with borrow(360, 900, first=True) as driver:
        started = time.monotonic()
        result["waited"] = started - asked
        sign_in(driver, plan["base"], plan["password"])
        sweep(driver, plan, source, True, result)
        result["sweptAfter"] = time.monotonic() - started
    return result


def editing(borrow, plan):
    """Signed in at 360 px, the edits from the cards, on `editBase`: a second server over a copy of the family's
    database, so that they change nothing the sweeps read and need not wait for them."""
    result = {}
    with borrow(360, 900, first=True) as driver:
        started = time.monotonic()
        edited = dict(plan, base=plan["editBase"])
        sign_in(driver, edited["base"], plan["password"])
        try:
            result["edits"] = edits(driver, edited)
        except Exception as error:  # the page the edits stopped on, to say why
            result["edits"] = {"error": (repr(error) + " " + str(getattr(error, "msg", "") or ""))[:300],
                               "url": driver.current_url,
                               "main": driver.find_element(By.TAG_NAME, "main").text[:1500]}
        result["editedAfter"] = time.monotonic() - started
    return result


def run(borrow, arguments):
    """The two sweeps and the edits run side by side, each in its own Chromium; the edits on a copy of the database
    (`editBase`). Each part's seconds count from when it had its Chromium."""
    plan = json.loads(arguments[0])
    source = axe_source()

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        out, inside = pool.submit(signed_out, borrow, plan, source), pool.submit(signed_in, borrow, plan, source)
        changing = pool.submit(editing, borrow, plan)
        first, second, third = out.result(), inside.result(), changing.result()
    result = {**first, "edits": third["edits"], "visits": first["visits"] + second["visits"],
              "rules": sorted(set(first.get("rules", [])) | set(second.get("rules", []))),
              "axeVersion": first.get("axeVersion") or second.get("axeVersion"),
              # Seconds from each Chromium's start, and in axe-core, for the test's printed figures.
              "timing": {"signedOutSwept": first.get("sweptAfter"), "signedOutRead": first.get("readAfter"),
                         "signedInSwept": second.get("sweptAfter"), "edited": third.get("editedAfter"),
                         "axe": first.get("axeSeconds", 0) + second.get("axeSeconds", 0),
                         "axeDark": first.get("axeDarkSeconds", 0) + second.get("axeDarkSeconds", 0),
                         "loads": first.get("loadSeconds", 0) + second.get("loadSeconds", 0),
                         "waitedForChromium": [first.get("waited"), second.get("waited")]}}
    return result


def main():
    print(json.dumps(run(own_browser, sys.argv[1:])))


if __name__ == "__main__":
    main()
