#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs them.
#   contrib/test.sh                          every test
#   contrib/test.sh --filter PickTests       any `swift test` arguments are passed on
#   contrib/test.sh --prepare                install only (CI, before its zero-warnings build)
#   contrib/test.sh --build                  install, then build the tests as below without running them (CI)
#   contrib/test.sh --product tmdb-stub      build one product as below and print its path (release-test.sh)
# 1. The Debian packages of the build, test and browser sets of contrib/packages/debian.txt (apt-get, through
#    sudo when not root; nothing when they are all there).
# 2. The pip packages of contrib/packages/python.txt in a venv of its own, .build/test-venv (Debian's python3
#    refuses a system-wide pip install); made again only when that list changes.
# 3. `swift test`, with MUSTC_TEST_PYTHON pointing the browser tests at the venv's python, built in a directory of
#    its own, .build-test, with the optimizer on (-O for Swift, -O2 for C) and the debug build's checks kept
#    (DEBUG, @testable). Measured side by side on the 2-core machine (docs/performance.md, "The test suite"): the
#    suite ran in 0.78 of the unoptimized build's seconds; a build from nothing took 485-521 s instead of 265, and a
#    one-file change about the same 12 s. MUSTC_TEST_BCRYPT_COST=4 makes the passwords' and PINs' bcrypt 64 times
#    cheaper (a debug build alone reads it: FamilyPassword.workFactor).
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
export MUSTC_TEST_BCRYPT_COST=4
flags=(--scratch-path .build-test -Xswiftc -O -Xcc -O2)
[[ ${1:-} == --build ]] && exec swift build --build-tests "${flags[@]}"
if [[ ${1:-} == --product ]]; then
    swift build --product "$2" "${flags[@]}" >&2
    echo "$(swift build --show-bin-path "${flags[@]}")/$2"
    exit 0
fi
exec swift test "${flags[@]}" "$@"
