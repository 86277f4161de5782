#!/usr/bin/env bash
# Installs the Debian packages of the named sets in contrib/packages/debian.txt that are not installed yet:
#   contrib/packages/debian.sh build test browser
# One `apt-get update` and one `apt-get install` for all of them, through sudo when not root; nothing when
# every package is there already. Off Debian (no dpkg-query) it names the packages and leaves them to you.
set -euo pipefail
list="$(dirname "$0")/debian.txt"
(($#)) || { echo "usage: $0 SET... (the sets of $list)" >&2; exit 64; }

wanted=()
while read -r package sets; do
    [[ -z $package || $package == \#* ]] && continue
    for set in "$@"; do
        if [[ " $sets " == *" $set "* ]]; then wanted+=("$package"); break; fi
    done
done <"$list"

if ! command -v dpkg-query >/dev/null; then
    echo "debian.sh: not a Debian machine: install these (or your system's equivalents) yourself: ${wanted[*]}" >&2
    exit 0
fi
missing=()
for package in "${wanted[@]}"; do
    [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) == "install ok installed" ]] || missing+=("$package")
done
((${#missing[@]})) || exit 0

sudo=""
[[ $(id -u) == 0 ]] || sudo="sudo"
echo "debian.sh: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
