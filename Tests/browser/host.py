"""One headless Chromium pool for a whole test run: the page scripts run in it instead of each starting its own.

Usage: host.py [SIZE]
Reads one JSON request a line on stdin, {"id": N, "script": "pages", "args": [...]}, runs that script's
`run(borrow, args)` on a thread of its own, and writes one line back, {"id": N, "result": {...}} or
{"id": N, "error": "..."}. SIZE Chromiums (3 unless named) are started once, as the host starts; a script
borrows one for its pages and gives it back cleared (cookies, colour scheme, size, console log), so the next script
meets a browser as a fresh one. A borrower that asks `first` (family.py, the longest, which bounds the run) never
waits: it starts another Chromium when none is free. At the end of stdin (the test process ended) every Chromium is
quit. The Swift side is Tests/mustcTests/SharedBrowser.swift; each script still runs on its own from the command line.
"""

import contextlib
import importlib
import json
import os
import sys
import threading
import traceback

from selenium.common.exceptions import NoAlertPresentException

from pages import browser


class Pool:
    def __init__(self, size):
        self.size, self.free, self.started = size, [], 0
        self.condition = threading.Condition()
        self.everyone = []

    @contextlib.contextmanager
    def borrow(self, width, height, first=False):
        driver = self.take(first)
        healthy = False
        try:
            clear(driver, width, height)
            yield driver
            clear(driver, 360, 800)
            healthy = True
        finally:
            self.give(driver, healthy)

    def take(self, first=False):
        """A free Chromium, or a new one while fewer than SIZE are started. A `first` borrower never waits: with none
        free it starts another beyond SIZE. It had waited up to 10 s for scripts holding all three (edits.py holds
        one for 17 s), in the whole runs that took 44 to 47 s rather than 37 to 39; a Chromium's start and quit is
        about 0.4 CPU-seconds (the headless shell, with chromedriver)."""
        with self.condition:
            while not first and not self.free and self.started >= self.size:
                self.condition.wait()
            if self.free:
                self.condition.notify_all()
                return self.free.pop()
            self.started += 1
        try:
            driver = browser(360, 800)
        except BaseException:
            with self.condition:
                self.started -= 1
                self.condition.notify_all()
            raise
        driver.set_page_load_timeout(60)
        with self.condition:
            self.everyone.append(driver)
        return driver

    def give(self, driver, healthy):
        """A driver whose script failed, or whose Chromium was lost, is quit; the next borrower starts another."""
        if not healthy:
            quit_quietly(driver)
        with self.condition:
            if healthy:
                self.free.append(driver)
            else:
                self.started -= 1
                self.everyone.remove(driver)
            self.condition.notify_all()

    def warm(self):
        """Starts every Chromium now, side by side, while the tests are still making what they will show."""
        def start():
            driver = self.take()
            self.give(driver, True)
        for _ in range(self.size):
            threading.Thread(target=start, daemon=True).start()

    def close(self):
        with self.condition:
            drivers, self.everyone, self.free = list(self.everyone), [], []
        for driver in drivers:
            quit_quietly(driver)


def quit_quietly(driver):
    try:
        driver.quit()
    except Exception:
        pass


def clear(driver, width, height):
    """What one script leaves that another could see: the page, an open dialog, cookies (which ignore the port,
    so one test's session would reach another's server), the emulated colour scheme, the window's size and the
    console's log."""
    try:
        driver.switch_to.alert.dismiss()
    except NoAlertPresentException:
        pass
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.set_window_size(width, height)
    driver.set_script_timeout(30)
    driver.get_log("browser")


def answer(lock, line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def serve(pool, request, lock):
    try:
        module = importlib.import_module(request["script"])
        result = module.run(pool.borrow, request["args"])
        line = json.dumps({"id": request["id"], "result": result})
    except BaseException as error:
        line = json.dumps({"id": request["id"], "error": "".join(traceback.format_exception(error))[-4000:]})
    answer(lock, line)


def main():
    # A group of its own, so that a test ending a hung host ends its drivers and Chromiums with it.
    os.setpgid(0, 0)
    pool = Pool(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    lock = threading.Lock()
    pool.warm()
    threads = []
    try:
        for line in sys.stdin:
            if line.strip():
                thread = threading.Thread(target=serve, args=(pool, json.loads(line), lock), daemon=True)
                thread.start()
                threads.append(thread)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
