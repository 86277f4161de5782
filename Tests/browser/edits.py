#!/usr/bin/env python3
"""Edits from the page, driven through a real headless Chromium against the built mustc binary.

Usage: edits.py BUILD HOME [browser|read-only]
BUILD is the build directory (mustc and tmdb-stub), HOME a scratch home. Each run starts its own TMDB stub (50 ms a
request, so a fetch takes seconds) and `mustc serve`, stops both at the end, and returns
{"checks": [{"name", "ok", "detail"}]}. Tests/mustcTests/PageEditTests.swift has `run` work in the shared Chromium
pool (host.py); from the command line it prints that object, in a Chromium of its own, and exits 1 when a check
failed.
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

from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from pages import own_browser

PASSWORD, NEW_PASSWORD = "popcorn on sunday", "crisps on monday"
# What the test leaves out of the environment mustc runs in: its own credentials or config must not reach it.
LEFT_OUT = ("TMDB_API_KEY", "TMDB_ACCESS_TOKEN", "MUSTC_CONFIG")


def run(borrow, arguments):
    """One scenario's checks; a crash is a failed check with its reason, and every child is ended at the end."""
    build, home = arguments[0], arguments[1]
    scenario = Scenario(borrow, build, home)
    try:
        if (arguments[2] if len(arguments) > 2 else "browser") == "read-only":
            scenario.read_only_scenario()
        else:
            scenario.browser_scenario()
    except Exception as error:
        import traceback
        # The browser itself failing (chromedriver or Chromium lost under load) is told apart from a check failing.
        name = "the browser kept running" if isinstance(error, WebDriverException) else "the scenario ran to the end"
        scenario.check(name, False, traceback.format_exc()[-1500:])
    finally:
        for child in scenario.children:
            if child.poll() is None:
                child.kill()
                child.wait()
    return {"checks": scenario.checks}


def main():
    result = run(own_browser, sys.argv[1:])
    print(json.dumps(result))
    sys.exit(0 if result["checks"] and all(c["ok"] for c in result["checks"]) else 1)


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

HOSTILE_MEMBER = "<img src=x onerror=alert(1)>"
HOSTILE_MOVIE = "<script>alert(2)</script> & \"Friends\""


class Scenario:
    """One run's state: its build, home, checks, children and the stub's environment, so that runs side by side in
    the shared host never see each other's."""

    def __init__(self, borrow, build, home):
        self.borrow, self.build, self.home = borrow, build, home
        self.binary = os.path.join(build, "mustc")
        self.checks, self.children = [], []
        self.environment = {name: value for name, value in os.environ.items() if name not in LEFT_OUT}

    def check(self, name, ok, detail=""):
        self.checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[:2000]})

    def env(self):
        return dict(self.environment, HOME=self.home, XDG_CONFIG_HOME=self.home + "/config",
                    XDG_DATA_HOME=self.home + "/data")

    def mustc(self, *arguments, stdin=None, timeout=120, prefix=()):
        done = subprocess.run(list(prefix) + [self.binary, *arguments], input=stdin, capture_output=True, text=True,
                              env=self.env(), timeout=timeout)
        return done

    def ratings(self, member):
        out = self.mustc("ratings", "--member", member, "--format", "json").stdout
        members = json.loads(out).get("members", [])
        return members[0]["movies"] if members else []

    def start_stub(self):
        stub = subprocess.Popen([os.path.join(self.build, "tmdb-stub"), "--movies", "400", "--latency-ms", "50"],
                                stdout=subprocess.PIPE, text=True)
        self.children.append(stub)
        base = stub.stdout.readline().strip()
        self.environment["MUSTC_TMDB_BASE_URL"] = base
        self.environment["MUSTC_TMDB_IMAGE_BASE_URL"] = base[: -len("/3")] + "/t/p/"
        self.environment["TMDB_API_KEY"] = "stub-api-key"
        return stub

    def start_serve(self, prefix=(), binary=None):
        serve = subprocess.Popen(list(prefix) + [binary or self.binary, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=self.env())
        self.children.append(serve)
        line = serve.stdout.readline()
        match = re.search(r"(http://\S+?)/?$", line.strip())
        if not match:
            raise RuntimeError("serve printed %r; stderr %r" % (line, serve.stderr.read()))
        return serve, match.group(1)

    def browser_scenario(self):
        self.start_stub()
        for member, movie in [("Ann", "Up"), ("Bob", "Amélie")]:
            done = self.mustc("add", member, movie)
            self.check("setup add %s" % movie, done.returncode == 0, done.stdout + done.stderr)
        done = self.mustc("password", stdin=PASSWORD + "\n")
        self.check("mustc password sets it", done.returncode == 0 and PASSWORD not in done.stdout, done.stdout + done.stderr)
        serve, url = self.start_serve()
        try:
            with self.borrow(360, 800) as driver:
                self.signed_out(driver, url)
                self.sign_in(driver, url)
                self.add_and_settle(driver, url)
                self.hostile_names(driver, url)
                self.remove(driver, url)
                self.settle_from_status(driver, url)
                self.forged_posts(driver, url)
                stop(serve)
                serve, url = self.start_serve()
                driver.get(url + "/members/Ann")
                self.check("the session survives a restart of serve", driver.find_elements(By.NAME, "movie"), driver.page_source)
                self.during_fetch(driver, url)
                status, headers, _ = request(url + "/signin", {"password": PASSWORD}, {"X-Forwarded-Proto": "https"})
                cookie = headers.get("Set-Cookie", "")
                self.check("behind an HTTPS proxy the cookie is Secure", status == 303 and "; Secure" in cookie, (status, headers))
                self.check("the cookie's token never reaches the database",
                      subprocess.run(["sqlite3", self.home + "/data/mustc/mustc.sqlite", "SELECT tokenHash FROM webSession"],
                                     capture_output=True, text=True).stdout.count(cookie.split(";")[0].split("=")[-1]) == 0)
                done = self.mustc("password", stdin=NEW_PASSWORD + "\n")
                self.check("a new password ends the sessions: the command says so",
                      "2 signed-in browsers were signed out" in done.stdout, done.stdout + done.stderr)
                driver.get(url + "/members/Ann")
                self.check("a new password ends the session: no forms", not post_forms(driver), driver.page_source)
                self.limiter(url)
                # The wrong password's page is a 403 on purpose; anything else severe is an error.
                logs = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                        and not ("/signin" in entry.get("message", "") and "403" in entry.get("message", ""))]
                self.check("the browser console has no errors", not logs, logs)
        finally:
            stop(serve)
            log = serve.stderr.read()
            self.check("no password or hash in the server's log",
                  PASSWORD not in log and NEW_PASSWORD not in log and "$2b$" not in log, log)

    def signed_out(self, driver, url):
        driver.get(url + "/members/Ann")
        self.check("signed out: no forms on the member page", not post_forms(driver), driver.page_source)
        self.check("signed out: a link to sign in", driver.find_elements(By.LINK_TEXT, "Sign in to edit"), driver.page_source)
        status, _, _ = request(url + "/members/Ann/movies", {"movie": "Dune (2021)"})
        self.check("signed out: a POST is refused", status == 403, status)
        driver.get(url + "/signin")
        submit_field(driver, "password", "not the password")
        self.check("wrong password: says so", "That password was wrong." in driver.page_source, driver.page_source)
        self.check("wrong password: no session", session_cookie(driver) is None, driver.get_cookies())

    def sign_in(self, driver, url):
        driver.get(url + "/signin")
        submit_field(driver, "password", PASSWORD)
        cookie = session_cookie(driver)
        self.check("sign in: a session cookie", cookie is not None, driver.get_cookies())
        if cookie:
            self.check("the cookie is HttpOnly and SameSite=Strict", cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
                  cookie)
            self.check("the cookie has at least 128 random bits", len(cookie["value"]) >= 32, len(cookie["value"]))
        self.check("sign in: back on the family page with forms", driver.find_elements(By.NAME, "member"), driver.page_source)

    def add_and_settle(self, driver, url):
        driver.get(url + "/members/Ann")
        submit_field(driver, "movie", "Dune (2021)")
        self.check("add Dune (2021): the page says so", "Ann now has" in notice(driver), notice(driver))
        ids = [movie.get("remoteId") for movie in self.ratings("Ann")]
        self.check("add Dune (2021): ratings shows 438631 on Ann's list", 438631 in ids, ids)

        submit_field(driver, "movie", "Lion King")
        buttons = driver.find_elements(By.CSS_SELECTOR, ".notice form.settle button")
        self.check("fuzzy title: candidates are shown", len(buttons) >= 2, notice(driver))
        lion = [movie for movie in self.ratings("Ann") if movie["title"] == "Lion King"]
        self.check("fuzzy title: nothing is linked", lion and lion[0].get("remoteId") is None, lion)
        chosen = [button for button in buttons if "tmdb:8587" in button.text]
        if chosen:
            navigating(driver, chosen[0].click)
            ids = [movie.get("remoteId") for movie in self.ratings("Ann")]
            self.check("clicking a candidate links it", 8587 in ids, ids)
            self.check("clicking a candidate opens its movie page", driver.current_url.endswith("/movies/8587"),
                  driver.current_url)
            # Wrong remake, settled from the movie page: The Lion King is the 2019 one.
            submit_field(driver, "target", "tmdb:420818")
            ids = [movie.get("remoteId") for movie in self.ratings("Ann")]
            self.check("settling a wrong remake from its movie page", 420818 in ids and 8587 not in ids, ids)

    def page_is_safe(self, driver, name, shown):
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
        self.check(name + ": no script ran and the text shows as text", not dialog and elements == 0 and shown in text,
              (dialog, elements, text[:400]))
        self.check(name + ": no sideways scroll at 360 px", widths[0] <= widths[1], widths)

    def hostile_names(self, driver, url):
        """A member and a movie named by a stranger's markup, through the forms, on every edit page they reach."""
        driver.get(url + "/")
        driver.find_element(By.ID, "member").send_keys(HOSTILE_MEMBER)
        submit_field(driver, "movie", HOSTILE_MOVIE)
        self.page_is_safe(driver, "a hostile member and title added from the family page", HOSTILE_MOVIE)
        driver.get(url + "/members/" + urllib.parse.quote(HOSTILE_MEMBER, safe=""))
        self.page_is_safe(driver, "the hostile member's page, signed in", HOSTILE_MEMBER)
        links = driver.find_elements(By.CSS_SELECTOR, "li.card a.button")
        self.check("the hostile title has a remove link", links, driver.page_source)
        if links:
            navigating(driver, links[0].click)
            self.page_is_safe(driver, "the confirmation page of a hostile title", HOSTILE_MOVIE)
        driver.get(url + "/signin")
        self.page_is_safe(driver, "the sign-in page", "Sign")

    def remove(self, driver, url):
        driver.get(url + "/members/Ann")
        links = [card.find_element(By.CSS_SELECTOR, "a.button") for card in driver.find_elements(By.CSS_SELECTOR, "li.card")
                 if card.find_element(By.TAG_NAME, "h2").text == "Up"]
        self.check("remove: a link for Up", links, driver.page_source)
        if not links:
            return
        navigating(driver, links[0].click)
        self.check("remove: a confirmation step", "Remove Up" in driver.page_source and
              [title["title"] for title in self.ratings("Ann")].count("Up") == 1, driver.page_source)
        navigating(driver, driver.find_element(By.CSS_SELECTOR, "main form[action$='/remove'] button[type=submit]").click)
        self.check("remove: the page says so", "Ann no longer has" in notice(driver), notice(driver))
        titles = [movie["title"] for movie in self.ratings("Ann")]
        self.check("remove: gone from ratings", "Up" not in titles, titles)

    def settle_from_status(self, driver, url):
        done = self.mustc("add", "Bob", "Disney")
        self.check("status: a movie that needs a choice", "none was taken" in done.stdout, done.stdout + done.stderr)
        driver.get(url + "/status")
        buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#settle ~ form.settle button, section form.settle button")
                   if "tmdb:603692" in b.text]
        self.check("status: a button for each candidate", buttons, driver.page_source)
        if buttons:
            navigating(driver, buttons[0].click)
            self.check("status: settling goes back to /status", driver.current_url.endswith("/status"), driver.current_url)
            ids = [movie.get("remoteId") for movie in self.ratings("Bob")]
            self.check("status: settled from /status", 603692 in ids, ids)

    def forged_posts(self, driver, url):
        driver.get(url + "/members/Ann")
        cookie, token = session_cookie(driver), csrf_of(driver)
        jar = {"Cookie": "mustc_session=" + cookie["value"]}
        status, _, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away"}, jar)
        self.check("a POST with the session but no CSRF token: 403", status == 403, status)
        status, _, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away", "csrf": token},
                               dict(jar, Origin="http://evil.example"))
        self.check("a POST from another site's Origin: 403", status == 403, status)
        titles = [movie["title"] for movie in self.ratings("Ann")]
        self.check("refused POSTs changed nothing", "Spirited Away" not in titles, titles)
        status, headers, _ = request(url + "/members/Ann/movies", {"movie": "Spirited Away", "csrf": token},
                                     dict(jar, Origin=url))
        self.check("the same POST with its token and this site's Origin: 303", status == 303, (status, headers))

    def during_fetch(self, driver, url):
        done = self.mustc("add", "--no-lookup", "Bob", *["Movie %d" % n for n in range(1, 401)])
        self.check("during fetch: 400 movies to fetch", done.returncode == 0, done.stderr)
        fetch = subprocess.Popen([self.binary, "fetch", "--force"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=self.env())
        self.children.append(fetch)
        time.sleep(0.5)
        driver.get(url + "/")
        driver.find_element(By.NAME, "member").send_keys("Cy")
        # 400 movies at 50 ms, 4 at a time: the fetch runs about 5 s; the add is sent while it does.
        still_running = fetch.poll() is None
        submit_field(driver, "movie", "Dune (1984)")
        out, err = fetch.communicate(timeout=300)
        self.check("during fetch: the add ran while the fetch did", still_running)
        self.check("during fetch: the fetch succeeded", fetch.returncode == 0, out + err)
        self.check("during fetch: the add succeeded", "Cy now has" in notice(driver) and "locked" not in driver.page_source,
              notice(driver))
        ids = [movie.get("remoteId") for movie in self.ratings("Cy")]
        self.check("during fetch: Cy has Dune (1984)", ids == [841], ids)

    def limiter(self, url):
        statuses, retry = [], None
        for _ in range(6):
            status, headers, _ = request(url + "/signin", {"password": "guess"})
            statuses.append(status)
            retry = headers.get("Retry-After")
        self.check("six wrong attempts in a minute: the sixth gets 429", statuses == [403] * 5 + [429], statuses)
        self.check("the 429 says when to retry", retry is not None and 0 < int(retry) <= 60, retry)

    def read_only_scenario(self):
        """The server runs as nobody, who may read the database but not write it: read-only, and /signin says why."""
        self.start_stub()
        self.mustc("add", "Ann", "Up")
        self.mustc("password", stdin=PASSWORD + "\n")
        database = self.home + "/data/mustc/mustc.sqlite"
        for path in [self.home, self.home + "/data", self.home + "/data/mustc"]:
            os.chmod(path, 0o755)
        for path in [database, database + "-wal", database + "-shm"]:
            if os.path.exists(path):
                os.chmod(path, 0o644)
        binary = self.home + "/mustc"
        subprocess.run(["cp", self.binary, binary], check=True)
        os.chmod(binary, 0o755)
        serve, url = self.start_serve(
            prefix=("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"), binary=binary)
        try:
            status, _, body = request(url + "/signin")
            self.check("read-only: /signin says why", status == 200 and "may not write the database" in body, body)
            self.check("read-only: no password field", 'name="password"' not in body, body)
            status, _, _ = request(url + "/signin", {"password": PASSWORD})
            self.check("read-only: signing in is refused", status != 303, status)
            status, _, body = request(url + "/members/Ann")
            self.check("read-only: the member page still reads", status == 200 and "Up" in body, status)
        finally:
            stop(serve)


if __name__ == "__main__":
    main()
