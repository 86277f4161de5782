#!/usr/bin/env python3
"""Phone (360 px) and desktop (1280 px) screenshots of a realistic family, for the README.

Usage: contrib/screenshots.py BUILD_DIR OUT_DIR
BUILD_DIR holds the built `mustc` and `tmdb-stub` (e.g. .build/debug). The family is made from the stub's own
movies (the classics and the remakes; no hostile titles) in a scratch HOME, with a few watched marks and own
ratings, then `mustc serve` runs on loopback and headless Chromium (Selenium, Debian's chromium) takes, at each
width, the family page, a member page, a movie page and movie night, light and dark, and a signed-in member
page. Everything started is stopped at the end. Needs Python with selenium (e.g. /work/venv/bin/python).
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

BUILD, OUT = sys.argv[1], sys.argv[2]
PASSWORD = "popcorn on sunday"
FAMILY = {
    "Ann": ["Up", "Amélie", "Spirited Away", "My Neighbor Totoro", "Dune (2021)", "The Lion King (1994)"],
    "Bob": ["Dune (1984)", "Up", "The Fast and the Furious", "The Lion King (2019)"],
    "Cleo": ["Spirited Away", "My Neighbor Totoro", "Amélie"],
}
WATCHED = [("Ann", "Up", "9"), ("Ann", "Amélie", "8"), ("Bob", "Dune (1984)", "6"), ("Cleo", "Spirited Away", None)]
PAGES = [("family", "/"), ("member", "/members/Ann"), ("movie", "/movies/438631"),
         ("night", "/night?member=Ann&member=Bob")]


def main():
    os.makedirs(OUT, exist_ok=True)
    home = tempfile.mkdtemp(prefix="mustc-screens-")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data",
               TMDB_API_KEY="stub-api-key")
    children = []
    try:
        stub = subprocess.Popen([os.path.join(BUILD, "tmdb-stub")], stdout=subprocess.PIPE, text=True)
        children.append(stub)
        env["MUSTC_TMDB_BASE_URL"] = stub.stdout.readline().strip()
        mustc = os.path.join(BUILD, "mustc")

        def run(*arguments, stdin=None):
            subprocess.run([mustc, *arguments], env=env, input=stdin, text=True, check=True,
                           capture_output=True, timeout=120)

        for member, movies in FAMILY.items():
            run("add", member, *movies)
        for member, movie, rating in WATCHED:
            run("watched", member, movie, *(["--rating", rating] if rating else []))
        run("fetch", "--force")
        run("password", stdin=PASSWORD + "\n")
        serve = subprocess.Popen([mustc, "serve", "--listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        children.append(serve)
        base = re.search(r"(http://\S+?)/?$", serve.stdout.readline().strip()).group(1)
        shoot(base)
    finally:
        for child in children:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def shoot(base):
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-device-scale-factor=2"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for width, height, device in ((360, 780, "phone"), (1280, 900, "desktop")):
            driver.set_window_size(width, height)
            for scheme in ("light", "dark"):
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                       {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for name, path in PAGES:
                    driver.get(base + path)
                    driver.save_screenshot(os.path.join(OUT, f"{name}-{device}-{scheme}.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.set_window_size(360, 780)
        driver.get(base + "/signin")
        field = driver.find_element(By.NAME, "password")
        field.send_keys(PASSWORD)
        field.submit()
        driver.get(base + "/members/Ann")
        driver.save_screenshot(os.path.join(OUT, "member-phone-signed-in.png"))
        # The cards with their controls, below the first screen.
        driver.execute_script("document.querySelector('ul.cards').scrollIntoView()")
        driver.save_screenshot(os.path.join(OUT, "member-phone-signed-in-cards.png"))
    finally:
        driver.quit()
    print("screenshots in", OUT)


if __name__ == "__main__":
    main()
