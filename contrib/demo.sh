#!/usr/bin/env bash
# Sets mustc up on a fresh Debian machine and shows it working against a local TMDB-compatible stub (tmdb-stub,
# no key and no network needed): installs the build's packages (contrib/packages/debian.txt), builds, then gives
# a family of four their lists and shows the commands.
#   contrib/demo.sh                     the commands
#   contrib/demo.sh --serve             then the family's page on a free port, until Ctrl-C
#   contrib/demo.sh --screenshots DIR   then the page at phone (360 px) and desktop (1280 px) width, taken by
#                                       headless Chromium into DIR (the README's pictures: docs/screenshots):
#                                       phone.png, movie.png, desktop.png and night.png (the whole family's
#                                       night on their services, the whole page); each page (family, member,
#                                       movie, that night) at both widths, light and dark; a signed-in member
#                                       page. Selenium drives it: Debian's python3-selenium, or
#                                       $MUSTC_TEST_PYTHON's venv.
# MUSTC_DEMO_BIN_DIR=DIR uses the mustc and tmdb-stub already built in DIR: no install, no build (the README's
# tests run the demo so, from inside `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=commands
case "${1:-}" in
"") ;;
--serve) mode=serve ;;
--screenshots)
    mode=screenshots
    shots=$(realpath -m "${2:?--screenshots needs a directory}")
    ;;
*)
    echo "usage: contrib/demo.sh [--serve | --screenshots DIR]" >&2
    exit 64
    ;;
esac

if [[ -n ${MUSTC_DEMO_BIN_DIR:-} ]]; then
    bin=$MUSTC_DEMO_BIN_DIR
else
    sets=(build)
    [[ $mode == screenshots ]] && sets+=(browser)
    contrib/packages/debian.sh "${sets[@]}"
    swift build --product mustc
    swift build --product tmdb-stub
    bin=$(swift build --show-bin-path)
fi

demo=$(mktemp -d)
stub="" serve=""
stop() {
    for child in $serve $stub; do
        kill "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    done
    rm -rf "$demo"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$bin/tmdb-stub" --port 0 >"$demo/stub.url" &
stub=$!
for _ in $(seq 100); do [[ -s $demo/stub.url ]] && break; sleep 0.1; done
stub_url=$(cat "$demo/stub.url")

export MUSTC_CONFIG=$PWD/config.example.json MUSTC_DATABASE=$demo/mustc.sqlite
export MUSTC_TMDB_BASE_URL=$stub_url TMDB_API_KEY=stub-api-key
# The stub's image host draws each movie's poster card (once mustc fetches posters): the page shows them.
export MUSTC_TMDB_IMAGE_BASE_URL=${stub_url%/3}/t/p/
mustc() {
    local shown=(mustc) argument
    for argument; do
        if [[ $argument =~ ^[A-Za-z0-9_./:=@+-]+$ ]]; then shown+=("$argument"); else shown+=("\"$argument\""); fi
    done
    echo "\$ ${shown[*]}"
    "$bin/mustc" "$@"
    echo
}

# The stub's own control address (not TMDB's): `touch` a vote more, or popularity moved, so the next fetch finds
# changes; `recommend` what TMDB recommends after a movie (the seeds of the suggestions).
stub_control() {
    local port=${stub_url#http://127.0.0.1:}
    port=${port%%/*}
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'GET /_stub/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1" >&3
    cat <&3 >/dev/null
    exec 3<&-
}
touch_movies() { stub_control "touch?$1"; }

mustc add Claire "Amélie" "Spirited Away" "Dune (2021)" "The Lion King (1994)"
mustc add Daniel "AMELIE" "Dune" "The Fast and the Furious"
mustc add Sofia "My Neighbor Totoro" "Spirited Away" "Up"
mustc add Leo "Up" "The Lion King" "tmdb:9799"
mustc watched Claire "Amélie" --on 2024-02-14 --rating 9
mustc watched Daniel "Dune (2021)" --rating 4.5/5
mustc members
mustc ratings --member Claire
touch_movies "ids=14160,438631&field=voteAverage"
touch_movies "ids=129,8392&field=popularity"
mustc fetch --force
touch_movies "ids=14160&field=voteAverage"
touch_movies "ids=8587,194"
mustc fetch --force
mustc changes --since 1d
# Tonight's choices: the kids' age limits (the fetch read the region's certifications), the family's two services
# (the same choices as the page's /settings), and a movie night Sofia has rated and Leo not yet, so the family page
# shows the rating and, signed in, asks Leo "How was Up?".
mustc member Sofia --age-limit R
mustc member Leo --age-limit PG-13
mustc providers --ours Netflix --ours "Disney Plus"
mustc night "Up" Sofia Leo
mustc watched Sofia "Up" --rating 9
mustc nights
# Sofia loved Up: a fetch that runs (forced here; the timer's next due one otherwise) then asks TMDB what it
# recommends after it, and the details of the best, and /night shows "Something new". The best of these two is Dune
# (1984), rated PG: within Leo's PG-13, so the whole family's night (the README's picture) suggests it.
stub_control "recommend?id=14160&ids=841,603692"
mustc fetch --force
mustc suggest Claire Daniel Sofia Leo
mustc pick Claire Daniel Sofia Leo --count 3
mustc status
mustc export --member Sofia

[[ $mode == commands ]] && exit 0

# The page: the family's password lets a browser sign in at /signin and edit the lists.
password=popcorn-on-friday
"$bin/mustc" password <<<"$password" >/dev/null
"$bin/mustc" serve --listen 127.0.0.1:0 >"$demo/serve.out" &
serve=$!
for _ in $(seq 300); do grep -q '^mustc: serving ' "$demo/serve.out" && break; sleep 0.1; done
url=$(sed -n 's/^mustc: serving //p' "$demo/serve.out")
[[ -n $url ]] || { echo "demo.sh: mustc serve printed no URL" >&2; exit 75; }

if [[ $mode == screenshots ]]; then
    mkdir -p "$shots"
    "${MUSTC_TEST_PYTHON:-python3}" - "$url" "$shots" "$password" <<'PYTHON'
import os, sys
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, shots, password = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
options = Options()
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--force-device-scale-factor=1"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_page_load_timeout(60)
broken = []  # a picture with a poster that did not load fails the run


def shoot(name, width, height, path, whole=False):
    driver.set_window_size(width, height)
    driver.get(url + path)
    if whole:
        # As tall as the page, so nothing is cut off: the window's height is its viewport's and the browser's own.
        chrome, page = driver.execute_script(
            "return [outerHeight - innerHeight, document.documentElement.scrollHeight]")
        driver.set_window_size(width, page + chrome)
    # Posters load lazily: the picture waits for every one in view (complete, and drawn or failed), 10 s at most.
    WebDriverWait(driver, 10).until(lambda driver: driver.execute_script(
        "return [...document.images].every(i => i.getBoundingClientRect().top > innerHeight || i.complete)"))
    broken.extend(f"{name}: {source}" for source in driver.execute_script(
        "return [...document.images].filter(i => i.complete && !i.naturalWidth).map(i => i.src)"))
    driver.save_screenshot(os.path.join(shots, name))
    print(f"demo.sh: {shots}/{name} ({width} px wide: {path})")


def scheme(value):
    features = [{"name": "prefers-color-scheme", "value": value}] if value else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


try:
    # The README's and docs/page.md's pictures.
    shoot("phone.png", 360, 1500, "/members/Claire")
    shoot("movie.png", 360, 1300, "/movies/14160")
    shoot("desktop.png", 1280, 900, "/")
    # Tonight for the whole family on their services: Leo's age limit applies, each card says where it streams.
    night = "/night?member=Claire&member=Daniel&member=Sofia&member=Leo&streaming=on"
    shoot("night.png", 360, 1500, night, whole=True)
    # Every page at both widths, light and dark.
    pages = [("family", "/"), ("member", "/members/Claire"), ("movie", "/movies/14160"), ("night", night)]
    for width, height, device in ((360, 780, "phone"), (1280, 900, "desktop")):
        for value in ("light", "dark"):
            scheme(value)
            for name, path in pages:
                shoot(f"{name}-{device}-{value}.png", width, height, path)
    scheme(None)
    # Signed in: the bar and each card's controls.
    driver.set_window_size(360, 780)
    driver.get(url + "/signin")
    field = driver.find_element(By.NAME, "password")
    field.send_keys(password)
    field.submit()
    shoot("member-phone-signed-in.png", 360, 780, "/members/Claire")
    driver.execute_script("document.querySelector('ul.cards').scrollIntoView()")
    driver.save_screenshot(os.path.join(shots, "member-phone-signed-in-cards.png"))
    print(f"demo.sh: {shots}/member-phone-signed-in-cards.png (the cards' controls)")
finally:
    driver.quit()
if broken:
    sys.exit("demo.sh: posters that did not load: " + ", ".join(broken))
PYTHON
    exit 0
fi

echo "The family's page: $url   (sign in at ${url}signin with the password $password to edit; Ctrl-C stops it)"
# Ctrl-C (or SIGTERM) ends the wait and the demo, which stops the page and the stub; the page failing fails it.
stopping=false
trap 'stopping=true' INT TERM
wait "$serve" || $stopping
