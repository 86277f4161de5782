#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs them.
#   contrib/test.sh                          every test
#   contrib/test.sh --filter PickTests       any `swift test` arguments are passed on
#   contrib/test.sh --prepare                install only (CI, before its zero-warnings build)
# 1. The Debian packages of the build, test and browser sets of contrib/packages/debian.txt (apt-get, through
#    sudo when not root; nothing when they are all there).
# 2. The pip packages of contrib/packages/python.txt in a venv of its own, .build/test-venv (Debian's python3
#    refuses a system-wide pip install); made again only when that list changes.
# 3. `swift test`, with MUSTC_TEST_PYTHON pointing the browser tests at the venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."

contrib/packages/debian.sh build test browser

venv=$PWD/.build/test-venv
requirements=contrib/packages/python.txt
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
    echo "test.sh: making $venv with $requirements" >&2
    python3 -m venv --clear "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
fi
export MUSTC_TEST_PYTHON=$venv/bin/python

[[ ${1:-} == --prepare ]] && exit 0
exec swift test "$@"
