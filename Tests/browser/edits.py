#!/usr/bin/env python3
"""Edits from the page, driven through a real headless Chromium against the built mustc binary.

Started by Tests/mustcTests/PageEditTests.swift with the build directory (mustc and tmdb-stub) and a scratch HOME.
Starts its own TMDB stub (50 ms a request, so a fetch takes seconds) and `mustc serve`, stops both at the end, and
prints one JSON object: {"checks": [{"name", "ok", "detail"}]}. Exit status 1 when any check failed.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

BUILD, HOME = sys.argv[1], sys.argv[2]
SCENARIO = sys.argv[3] if len(sys.argv) > 3 else "browser"
MUSTC = os.path.join(BUILD, "mustc")
PASSWORD, NEW_PASSWORD = "popcorn on sunday", "crisps on monday"
checks = []
children = []


def check(name, ok, detail=""):
    checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[:2000]})


def env():
    return dict(os.environ, HOME=HOME, XDG_CONFIG_HOME=HOME + "/config", XDG_DATA_HOME=HOME + "/data")


def mustc(*arguments, stdin=None, timeout=120, prefix=()):
    done = subprocess.run(list(prefix) + [MUSTC, *arguments], input=stdin, capture_output=True, text=True,
                          env=env(), timeout=timeout)
    return done


def ratings(member):
    out = mustc("ratings", "--member", member, "--format", "json").stdout
    members = json.loads(out).get("members", [])
    return members[0]["movies"] if members else []


def start_stub():
    stub = subprocess.Popen([os.path.join(BUILD, "tmdb-stub"), "--movies", "400", "--latency-ms", "50"],
                            stdout=subprocess.PIPE, text=True)
    children.append(stub)
    base = stub.stdout.readline().strip()
    os.environ["MUSTC_TMDB_BASE_URL"] = base
    os.environ["MUSTC_TMDB_IMAGE_BASE_URL"] = base[: -len("/3")] + "/t/p/"
    os.environ["TMDB_API_KEY"] = "stub-api-key"
    return stub


def start_serve(prefix=(), binary=None):
    serve = subprocess.Popen(list(prefix) + [binary or MUSTC, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env())
    children.append(serve)
    line = serve.stdout.readline()
    match = re.search(r"(http://\S+?)/?$", line.strip())
    if not match:
        raise RuntimeError("serve printed %r; stderr %r" % (line, serve.stderr.read()))
    return serve, match.group(1)


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def request(url, data=None, headers=None):
    """(status, headers, body) for a GET, or a POST of form fields; redirects are not followed."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=60) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=360,800",
                     "--disable-gpu", "--no-first-run"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    return driver


def post_forms(driver):
    return driver.find_elements(By.CSS_SELECTOR, "form[method=post]")


def notice(driver):
    found = driver.find_elements(By.CSS_SELECTOR, ".notice")
    return " ".join(element.text for element in found)


def navigating(driver, action):
    """Runs an action that loads a new page (a submit, a click), and waits until that page has replaced this one."""
    old = driver.find_element(By.TAG_NAME, "html")
    action()
    WebDriverWait(driver, 60).until(expected_conditions.staleness_of(old))
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.readyState") == "complete")


def submit_field(driver, name, value):
    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)
    navigating(driver, field.submit)


def session_cookie(driver):
    return driver.get_cookie("mustc_session")


def csrf_of(driver):
    fields = driver.find_elements(By.CSS_SELECTOR, "input[name=csrf]")
    return fields[0].get_attribute("value") if fields else None


def browser_scenario():
    start_stub()
    for member, movie in [("Ann", "Up"), ("Bob", "Amélie")]:
        done = mustc("add", member, movie)
        check("setup add %s" % movie, done.returncode == 0, done.stdout + done.stderr)
    done = mustc("password", stdin=PASSWORD + "\n")
    check("mustc password sets it", done.returncode == 0 and PASSWORD not in done.stdout, done.stdout + done.stderr)
    serve, url = start_serve()
    driver = browser()
    try:
        signed_out(driver, url)
        sign_in(driver, url)
        add_and_settle(driver, url)
        hostile_names(driver, url)
        remove(driver, url)
        settle_from_status(driver, url)
        forged_posts(driver, url)
        stop(serve)
        serve, url = start_serve()
        driver.get(url + "/members/Ann")
        check("the session survives a restart of serve", driver.find_elements(By.NAME, "movie"), driver.page_source)
        during_fetch(driver, url)
        status, headers, _ = request(url + "/signin", {"password": PASSWORD}, {"X-Forwarded-Proto": "https"})
        cookie = headers.get("Set-Cookie", "")
        check("behind an HTTPS proxy the cookie is Secure", status == 303 and "; Secure" in cookie, (status, headers))
        check("the cookie's token never reaches the database",
              subprocess.run(["sqlite3", HOME + "/data/mustc/mustc.sqlite", "SELECT tokenHash FROM webSession"],
                             capture_output=True, text=True).stdout.count(cookie.split(";")[0].split("=")[-1]) == 0)
        done = mustc("password", stdin=NEW_PASSWORD + "\n")
        check("a new password ends the sessions: the command says so",
              "2 signed-in browsers were signed out" in done.stdout, done.stdout + done.stderr)
        driver.get(url + "/members/Ann")
        check("a new password ends the session: no forms", not post_forms(driver), driver.page_source)
        limiter(url)
        # The wrong password's page is a 403 on purpose; anything else severe is an error.
        logs = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                and not ("/signin" in entry.get("message", "") and "403" in entry.get("message", ""))]
        check("the browser console has no errors", not logs, logs)
    finally:
        driver.quit()
        stop(serve)
        log = serve.stderr.read()
        check("no password or hash in the server's log",
              PASSWORD not in log and NEW_PASSWORD not in log and "$2b$" not in log, log)


def signed_out(driver, url):
    driver.get(url + "/members/Ann")
    check("signed out: no forms on the member page", not post_forms(driver), driver.page_source)
    check("signed out: a link to sign in", driver.find_elements(By.LINK_TEXT, "Sign in to edit"), driver.page_source)
    status, _, _ = request(url + "/members/Ann/movies", {"movie": "Dune (2021)"})
    check("signed out: a POST is refused", status == 403, status)
    driver.get(url + "/signin")
    submit_field(driver, "password", "not the password")
    check("wrong password: says so", "That password was wrong." in driver.page_source, driver.page_source)
    check("wrong password: no session", session_cookie(driver) is None, driver.get_cookies())


def sign_in(driver, url):
    driver.get(url + "/signin")
    submit_field(driver, "password", PASSWORD)
    cookie = session_cookie(driver)
    check("sign in: a session cookie", cookie is not None, driver.get_cookies())
    if cookie:
        check("the cookie is HttpOnly and SameSite=Strict", cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
              cookie)
        check("the cookie has at least 128 random bits", len(cookie["value"]) >= 32, len(cookie["value"]))
    check("sign in: back on the family page with forms", driver.find_elements(By.NAME, "member"), driver.page_source)


def add_and_settle(driver, url):
    driver.get(url + "/members/Ann")
    submit_field(driver, "movie", "Dune (2021)")
    check("add Dune (2021): the page says so", "Ann now has" in notice(driver), notice(driver))
    ids = [movie.get("remoteId") for movie in ratings("Ann")]
    check("add Dune (2021): ratings shows 438631 on Ann's list", 438631 in ids, ids)

    submit_field(driver, "movie", "Lion King")
    buttons = driver.find_elements(By.CSS_SELECTOR, ".notice form.settle button")
    check("fuzzy title: candidates are shown", len(buttons) >= 2, notice(driver))
    lion = [movie for movie in ratings("Ann") if movie["title"] == "Lion King"]
    check("fuzzy title: nothing is linked", lion and lion[0].get("remoteId") is None, lion)
    chosen = [button for button in buttons if "tmdb:8587" in button.text]
    if chosen:
        navigating(driver, chosen[0].click)
        ids = [movie.get("remoteId") for movie in ratings("Ann")]
        check("clicking a candidate links it", 8587 in ids, ids)
        check("clicking a candidate opens its movie page", driver.current_url.endswith("/movies/8587"),
              driver.current_url)
        # Wrong remake, settled from the movie page: The Lion King is the 2019 one.
        submit_field(driver, "target", "tmdb:420818")
        ids = [movie.get("remoteId") for movie in ratings("Ann")]
        check("settling a wrong remake from its movie page", 420818 in ids and 8587 not in ids, ids)


HOSTILE_MEMBER = "<img src=x onerror=alert(1)>"
HOSTILE_MOVIE = "<script>alert(2)</script> & \"Friends\""


def page_is_safe(driver, name, shown):
    """No dialog opened, no element the text could have made, the text shown as text, and no sideways scroll."""
    try:
        driver.switch_to.alert.dismiss()
        dialog = True
    except NoAlertPresentException:
        dialog = False
    elements = len(driver.find_elements(By.CSS_SELECTOR, "main img, main script"))
    text = driver.find_element(By.TAG_NAME, "main").text
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];")
    check(name + ": no script ran and the text shows as text", not dialog and elements == 0 and shown in text,
          (dialog, elements, text[:400]))
    check(name + ": no sideways scroll at 360 px", widths[0] <= widths[1], widths)


def hostile_names(driver, url):
    """A member and a movie named by a stranger's markup, through the forms, on every edit page they reach."""
    driver.get(url + "/")
    driver.find_element(By.ID, "member").send_keys(HOSTILE_MEMBER)
    submit_field(driver, "movie", HOSTILE_MOVIE)
    page_is_safe(driver, "a hostile member and title added from the family page", HOSTILE_MOVIE)
    driver.get(url + "/members/" + urllib.parse.quote(HOSTILE_MEMBER, safe=""))
    page_is_safe(driver, "the hostile member's page, signed in", HOSTILE_MEMBER)
    links = driver.find_elements(By.CSS_SELECTOR, "li.card a.button")
    check("the hostile title has a remove link", links, driver.page_source)
    if links:
        navigating(driver, links[0].click)
        page_is_safe(driver, "the confirmation page of a hostile title", HOSTILE_MOVIE)
    driver.get(url + "/signin")
    page_is_safe(driver, "the sign-in page", "Sign")


def remove(driver, url):
    driver.get(url + "/members/Ann")
    links = [card.find_element(By.CSS_SELECTOR, "a.button") for card in driver.find_elements(By.CSS_SELECTOR, "li.card")
             if card.find_element(By.TAG_NAME, "h2").text == "Up"]
    check("remove: a link for Up", links, driver.page_source)
    if not links:
        return
    navigating(driver, links[0].click)
    check("remove: a confirmation step", "Remove Up" in driver.page_source and
          [title["title"] for title in ratings("Ann")].count("Up") == 1, driver.page_source)
    navigating(driver, driver.find_element(By.CSS_SELECTOR, "main form[action$='/remove'] button[type=submit]").click)
    check("remove: the page says so", "Ann no longer has" in notice(driver), notice(driver))
    titles = [movie["title"] for movie in ratings("Ann")]
    check("remove: gone from ratings", "Up" not in titles, titles)


def settle_from_status(driver, url):
    done = mustc("add", "Bob", "Disney")
    check("status: a movie that needs a choice", "none was taken" in done.stdout, done.stdout + done.stderr)
    driver.get(url + "/status")
    buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#settle ~ form.settle button, section form.settle button")
               if "tmdb:603692" in b.text]
    check("status: a button for each candidate", buttons, driver.page_source)
    if buttons:
        navigating(driver, buttons[0].click)
        check("status: settling goes back to /status", driver.current_url.endswith("/status"), driver.current_url)
        ids = [movie.get("remoteId") for movie in ratings("Bob")]
        check("status: settled from /status", 603692 in ids, ids)


def forged_posts(driver, url):
    driver.get(url + "/members/Ann")
    cookie, token = session_cookie(driver), csrf_of(driver)
    jar = {"Cookie": "mustc_session=" + cookie["value"]}
    status, _, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away"}, jar)
    check("a POST with the session but no CSRF token: 403", status == 403, status)
    status, _, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away", "csrf": token},
                           dict(jar, Origin="http://evil.example"))
    check("a POST from another site's Origin: 403", status == 403, status)
    titles = [movie["title"] for movie in ratings("Ann")]
    check("refused POSTs changed nothing", "Spirited Away" not in titles, titles)
    status, headers, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away", "csrf": token},
                                 dict(jar, Origin=url))
    check("the same POST with its token and this site's Origin: 303", status == 303, (status, headers))


def during_fetch(driver, url):
    done = mustc("add", "--no-lookup", "Bob", *["Movie %d" % n for n in range(1, 401)])
    check("during fetch: 400 movies to fetch", done.returncode == 0, done.stderr)
    fetch = subprocess.Popen([MUSTC, "fetch", "--force"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
    children.append(fetch)
    time.sleep(0.5)
    driver.get(url + "/")
    driver.find_element(By.NAME, "member").send_keys("Cy")
    # 400 movies at 50 ms, 4 at a time: the fetch runs about 5 s; the add is sent while it does.
    still_running = fetch.poll() is None
    submit_field(driver, "movie", "Dune (1984)")
    out, err = fetch.communicate(timeout=300)
    check("during fetch: the add ran while the fetch did", still_running)
    check("during fetch: the fetch succeeded", fetch.returncode == 0, out + err)
    check("during fetch: the add succeeded", "Cy now has" in notice(driver) and "locked" not in driver.page_source,
          notice(driver))
    ids = [movie.get("remoteId") for movie in ratings("Cy")]
    check("during fetch: Cy has Dune (1984)", ids == [841], ids)


def limiter(url):
    statuses, retry = [], None
    for _ in range(6):
        status, headers, _ = request(url + "/signin", {"password": "guess"})
        statuses.append(status)
        retry = headers.get("Retry-After")
    check("six wrong attempts in a minute: the sixth gets 429", statuses == [403] * 5 + [429], statuses)
    check("the 429 says when to retry", retry is not None and 0 < int(retry) <= 60, retry)


def read_only_scenario():
    """The server runs as nobody, who may read the database but not write it: read-only, and /signin says why."""
    start_stub()
    mustc("add", "Ann", "Up")
    mustc("password", stdin=PASSWORD + "\n")
    database = HOME + "/data/mustc/mustc.sqlite"
    for path in [HOME, HOME + "/data", HOME + "/data/mustc"]:
        os.chmod(path, 0o755)
    for path in [database, database + "-wal", database + "-shm"]:
        if os.path.exists(path):
            os.chmod(path, 0o644)
    binary = HOME + "/mustc"
    subprocess.run(["cp", MUSTC, binary], check=True)
    os.chmod(binary, 0o755)
    serve, url = start_serve(
        prefix=("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"), binary=binary)
    try:
        status, _, body = request(url + "/signin")
        check("read-only: /signin says why", status == 200 and "may not write the database" in body, body)
        check("read-only: no password field", 'name="password"' not in body, body)
        status, _, _ = request(url + "/signin", {"password": PASSWORD})
        check("read-only: signing in is refused", status != 303, status)
        status, _, body = request(url + "/members/Ann")
        check("read-only: the member page still reads", status == 200 and "Up" in body, status)
    finally:
        stop(serve)


try:
    if SCENARIO == "read-only":
        read_only_scenario()
    else:
        browser_scenario()
except Exception as error:  # a crash is a failed check, with its reason
    import traceback
    from selenium.common.exceptions import WebDriverException
    # The browser itself failing (chromedriver or Chromium lost under load) is told apart from a check failing.
    name = "the browser kept running" if isinstance(error, WebDriverException) else "the scenario ran to the end"
    check(name, False, traceback.format_exc()[-1500:])
finally:
    for child in children:
        if child.poll() is None:
            child.kill()
            child.wait()
print(json.dumps({"checks": checks}))
sys.exit(0 if checks and all(c["ok"] for c in checks) else 1)
