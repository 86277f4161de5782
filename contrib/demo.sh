#!/usr/bin/env bash
# Sets mustc up on a fresh Debian machine and shows it working against a local TMDB-compatible stub:
# installs the C libraries if missing, builds, then runs add, ratings, fetch and status with config.example.json.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for package in libsqlite3-dev libcurl4-openssl-dev zlib1g-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [[ $(id -u) == 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

swift build --product mustc
swift build --product tmdb-stub
bin=$(swift build --show-bin-path)

demo=$(mktemp -d)
trap 'kill "$stub" 2>/dev/null || true; rm -rf "$demo"' EXIT
"$bin/tmdb-stub" --port 0 >"$demo/stub.url" &
stub=$!
for _ in $(seq 50); do [[ -s $demo/stub.url ]] && break; sleep 0.1; done

export MUSTC_TMDB_BASE_URL=$(cat "$demo/stub.url") TMDB_API_KEY=stub-api-key MUSTC_DATABASE=$demo/mustc.sqlite
# The stub's image host draws each movie's poster card: the page then shows posters from this machine.
export MUSTC_TMDB_IMAGE_BASE_URL=${MUSTC_TMDB_BASE_URL%/3}/t/p/
mustc() { echo "\$ mustc $*"; "$bin/mustc" "$1" --config config.example.json "${@:2}"; echo; }
mustc add Alice "Amélie" "Spirited Away"
mustc add Bob "AMELIE"
mustc add bob "amélie"
mustc ratings
mustc ratings --format json
mustc fetch --force
mustc status
