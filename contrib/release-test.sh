#!/usr/bin/env bash
# The install test (issue 43): makes the release (contrib/release.sh --image) and tries each of its three forms
# as a family would install it, on a clean Debian 12 root with no Swift (a container of debian:bookworm-slim):
#   tarball  unpacked beside only the runtime packages: --version, `add` against the TMDB stub, `ratings`
#   .deb     apt-get install ./mustc_….deb: the mustc user, the units, the man page, the config's mode; data
#            written as mustc; remove and reinstall keep the data and the config; lintian reports no error
#   image    serves the page on MUSTC_LISTEN, rates a movie left due before it started within 90 s by itself,
#            `exec` runs commands, non-root, a health check, stops within 12 s, a new container on the same
#            volume still lists the movie, at most 150 MB over its base; compose.yaml parses
# Run by .ci/run; by hand: contrib/release-test.sh. It installs the `release` set of contrib/packages/debian.txt.
#
# podman runs here with runc, cgroupfs, the vfs driver and no default ulimits, from a containers.conf and a
# storage.conf of its own (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF); its images live in .build-release/containers.
# No registry is reached: when debian:bookworm-slim is missing it is made from Debian's packages with mmdebstrap
# (cached in .build-release) and imported under that name. Containers use --network host, which reaches Debian's
# mirror and the stub on loopback. Everything it starts is stopped and removed on exit. Exits 1 naming each failure.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
say() { printf 'release-test: %s\n' "$*" >&2; }
failures=()
pass() { say "ok: $*"; }
fail() {
    say "FAILED: $*"
    failures+=("$*")
}
die() {
    fail "$*"
    exit 1
}
# Runs a command (or one of this script's functions) with a deadline; leaves its wall time in $elapsed.
timed() {
    local deadline=$1 t0=$EPOCHREALTIME status=0
    shift
    if declare -F "$1" >/dev/null; then
        "$@" &
        local child=$!
        (sleep "$deadline" && kill "$child" 2>/dev/null) &
        local watchdog=$!
        wait "$child" || status=$?
        kill "$watchdog" 2>/dev/null || true
        wait "$watchdog" 2>/dev/null || true
    else
        timeout --kill-after=5 "$deadline" "$@" || status=$?
    fi
    elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    return "$status"
}

contrib/packages/debian.sh build release

version=$(sed -n 's/^ *public static let current = "\([^"]*\)".*/\1/p' Sources/MustCore/Support/Version.swift)
tarball=dist/mustc-$version-linux-$(uname -m).tar.gz
deb=dist/mustc_${version}_$(dpkg --print-architecture).deb
image=localhost/mustc:$version
base=docker.io/library/debian:bookworm-slim
runtime=$(awk '!/^#/ && NF > 1 { for (i = 2; i <= NF; i++) if ($i == "runtime") print $1 }' \
    contrib/packages/debian.txt | tr '\n' ' ')

# podman's settings and state: containers.conf and the run directory here, images and volumes under
# .build-release (kept between runs, so the base is imported once).
tmp=$(mktemp -d /tmp/mustc-release-test.XXXXXX)
chmod 755 "$tmp"
state=/run/mustc-release-test
mkdir -p "$state" .build-release/containers .build-release/apt/lists/partial .build-release/apt/archives/partial
cat >"$tmp/containers.conf" <<EOF
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$state/libpod"
EOF
cat >"$tmp/storage.conf" <<EOF
[storage]
driver = "vfs"
graphroot = "$PWD/.build-release/containers/storage"
runroot = "$state/storage"
EOF
export CONTAINERS_CONF=$tmp/containers.conf CONTAINERS_STORAGE_CONF=$tmp/storage.conf

prefix=mustc-release-test-$$
stub=""
cleanup() {
    local status=$?
    podman ps -a --filter "name=^$prefix" --format '{{.Names}}' 2>/dev/null | while read -r name; do
        podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
    done
    podman volume ls --filter "name=^$prefix" --format '{{.Name}}' 2>/dev/null | while read -r name; do
        podman volume rm -f "$name" >/dev/null 2>&1 || true
    done
    if [[ -n $stub ]]; then
        kill "$stub" 2>/dev/null || true
        wait "$stub" 2>/dev/null || true
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the base: debian:bookworm-slim, or the same made from Debian's packages -----------------------------------
if ! podman image exists "$base"; then
    cache=.build-release/debian-bookworm-minbase.tar
    if [[ ! -s $cache ]]; then
        say "making $base with mmdebstrap (minbase, bookworm) into $cache"
        timed 1800 mmdebstrap --quiet --variant=minbase --format=tar bookworm "$cache.part" || die "mmdebstrap failed"
        mv "$cache.part" "$cache"
        say "mmdebstrap took ${elapsed} s"
    fi
    podman import --quiet "$cache" "$base" >/dev/null || die "podman import $cache failed"
fi
pass "base $base: $(podman image inspect --format '{{.Size}}' "$base" | awk '{ printf "%.0f MB", $1 / 1e6 }')"

# --- the release ---------------------------------------------------------------------------------------------
t0=$SECONDS
contrib/release.sh --image || die "contrib/release.sh --image failed"
say "contrib/release.sh --image took $((SECONDS - t0)) s"
for file in "$tarball" "$deb"; do [[ -s $file ]] || die "contrib/release.sh made no $file"; done
podman image exists "$image" || die "contrib/release.sh --image made no $image"
say "sizes: tarball $(du -h "$tarball" | cut -f1), .deb $(du -h "$deb" | cut -f1)"

# --- the TMDB stub, on loopback -----------------------------------------------------------------------------
# The test build's (contrib/test.sh), which CI has just made: no build of its own.
stub_binary=$(contrib/test.sh --product tmdb-stub 2>"$tmp/stub-build.log" | tail -n 1) || {
    tail -n 20 "$tmp/stub-build.log" >&2
    die "contrib/test.sh --product tmdb-stub failed"
}
"$stub_binary" --port 0 >"$tmp/stub.url" &
stub=$!
for _ in $(seq 100); do [[ -s $tmp/stub.url ]] && break; sleep 0.1; done
[[ -s $tmp/stub.url ]] || die "tmdb-stub printed no URL within 10 s"
stub_url=$(cat "$tmp/stub.url")
# The key goes to containers through a file, as compose's env_file does: never on a command line.
install -m 600 /dev/null "$tmp/env"
printf 'TMDB_API_KEY=stub-api-key\nMUSTC_TMDB_BASE_URL=%s\nMUSTC_TMDB_IMAGE_BASE_URL=%s/t/p/\n' \
    "$stub_url" "${stub_url%/3}" >"$tmp/env"

# What each clean root runs, as scripts mounted at /test. The apt lists and downloaded packages are kept under
# .build-release/apt between containers and runs: the roots stay clean, the mirror is asked once.
mkdir -p "$tmp/test"
clean_root() {
    local name=$1
    shift
    podman run --rm --name "$prefix-$name" --network host --env-file "$tmp/env" \
        -e "VERSION=$version" -e "RUNTIME=$runtime" \
        -v "$PWD/dist:/dist:ro" -v "$tmp/test:/test:ro" \
        -v "$PWD/.build-release/apt/lists:/var/lib/apt/lists" \
        -v "$PWD/.build-release/apt/archives:/var/cache/apt/archives" \
        "$base" "$@"
}

cat >"$tmp/test/common.sh" <<'EOF'
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
step() { printf '  [%s] %s\n' "$(date +%T)" "$*"; }
check() { if ! eval "$1"; then echo "  check failed: $2" >&2; exit 1; fi; }
if command -v swift >/dev/null; then echo "  this root has Swift" >&2; exit 1; fi
step "apt-get update"
apt-get update -qq
EOF

cat >"$tmp/test/tarball.sh" <<'EOF'
. /test/common.sh
step "the runtime packages only: $RUNTIME"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $RUNTIME >/dev/null
tar -C /opt -xzf /dist/mustc-"$VERSION"-linux-"$(uname -m)".tar.gz
prefix=/opt/mustc-$VERSION-linux-$(uname -m)
for file in bin/mustc share/man/man1/mustc.1 share/bash-completion/completions/mustc \
    share/zsh/site-functions/_mustc share/fish/vendor_completions.d/mustc.fish \
    share/systemd/user/mustc-fetch.service share/systemd/user/mustc-fetch.timer \
    share/systemd/user/mustc-serve.service share/doc/mustc/README.md share/doc/mustc/config.example.json \
    share/doc/mustc/NOTICE; do
    check "[[ -s $prefix/$file ]]" "the tarball has no $file"
done
export PATH=$prefix/bin:$PATH MUSTC_DATABASE=/tmp/family/mustc.sqlite
step "mustc --version"
mustc --version | tee /tmp/version
check '[[ $(head -n 1 /tmp/version) == "$VERSION" ]]' "mustc --version does not say $VERSION"
step "mustc add, against the stub"
mustc add Ann "Amélie" "Spirited Away" | tee /tmp/add
check 'grep -q "TMDB: Amélie (2001), id 194, rated 7.9" /tmp/add' "add did not look Amélie up"
step "mustc ratings"
mustc ratings | tee /tmp/ratings
check 'grep -q "Spirited Away" /tmp/ratings && grep -q "7.9" /tmp/ratings' "ratings lists no rated Amélie"
EOF

cat >"$tmp/test/deb.sh" <<'EOF'
. /test/common.sh
deb=/dist/mustc_${VERSION}_$(dpkg --print-architecture).deb
as_mustc() { runuser -u mustc -- "$@"; }
step "apt-get install ./$(basename "$deb")"
cp "$deb" /tmp/
apt-get install -y -qq /tmp/"$(basename "$deb")" 2>&1 | grep -v '^N: Download is performed unsandboxed' || true
check 'dpkg-query -W -f="\${Status}" mustc | grep -q "install ok installed"' "mustc is not installed"
check '[[ $(mustc --version | head -n 1) == "$VERSION" ]]' "/usr/bin/mustc --version does not say $VERSION"
check 'getent passwd mustc >/dev/null' "no mustc user"
check 'getent group mustc >/dev/null' "no mustc group"
for unit in mustc-fetch.service mustc-fetch.timer mustc-serve.service; do
    check "[[ -s /lib/systemd/system/$unit ]]" "no unit $unit"
    check "grep -q '^User=mustc' /lib/systemd/system/$unit || [[ $unit == *.timer ]]" "$unit does not run as mustc"
done
check '[[ -s /usr/share/man/man1/mustc.1.gz ]]' "no man page"
check '[[ -s /usr/share/bash-completion/completions/mustc && -s /usr/share/zsh/vendor-completions/_mustc ]]' \
    "no bash or zsh completion"
check '[[ -s /usr/share/fish/vendor_completions.d/mustc.fish ]]' "no fish completion"
check '[[ $(stat -c "%a %U %G" /etc/mustc/config.json) == "640 root mustc" ]]' \
    "/etc/mustc/config.json is $(stat -c "%a %U %G" /etc/mustc/config.json), not 640 root mustc"
check '[[ $(stat -c "%U %G" /var/lib/mustc) == "mustc mustc" ]]' "/var/lib/mustc is not mustc's"
check '! ls /etc/systemd/system/*.wants/mustc* 2>/dev/null' "a unit was enabled on install"
step "the admin puts the key in the config; the mustc user adds movies"
sed -i 's/"apiKey": ""/"apiKey": "stub-api-key"/' /etc/mustc/config.json
as_mustc env -u TMDB_API_KEY mustc add --config /etc/mustc/config.json Ann "Amélie" | tee /tmp/add
check 'grep -q "rated 7.9" /tmp/add' "add as mustc did not look Amélie up"
check '[[ -s /var/lib/mustc/mustc.sqlite ]]' "no database in /var/lib/mustc"
step "apt-get remove mustc"
apt-get remove -y -qq mustc >/dev/null
check '! command -v mustc' "mustc is still on PATH after remove"
check '[[ -s /var/lib/mustc/mustc.sqlite ]]' "remove deleted the database"
check 'grep -q stub-api-key /etc/mustc/config.json' "remove deleted the config or its key"
step "apt-get install again"
apt-get install -y -qq /tmp/"$(basename "$deb")" 2>&1 | grep -v '^N: Download is performed unsandboxed' || true
check 'grep -q stub-api-key /etc/mustc/config.json' "the reinstall lost the config's key"
check '[[ $(stat -c "%a %U %G" /etc/mustc/config.json) == "640 root mustc" ]]' "the config's mode changed"
as_mustc mustc ratings --config /etc/mustc/config.json | tee /tmp/ratings
check 'grep -q "Amélie" /tmp/ratings && grep -q "7.9" /tmp/ratings' "the reinstall does not find the data"
EOF

# --- the tarball ---------------------------------------------------------------------------------------------
say "tarball: on a clean bookworm root with only the runtime packages"
if timed 900 clean_root tarball bash /test/tarball.sh; then
    pass "tarball: --version, add against the stub, ratings (${elapsed} s)"
else
    fail "tarball (see above)"
fi

# --- the .deb ------------------------------------------------------------------------------------------------
say ".deb: lintian"
lintian --tag-display-limit 0 "$deb" >"$tmp/lintian" 2>&1 || true
sed 's/^/  /' "$tmp/lintian" >&2
if grep -q '^E:' "$tmp/lintian"; then
    fail "lintian reports errors on $deb"
else
    pass "lintian: no error ($(grep -c '^W:' "$tmp/lintian" || true) warnings)"
fi
say ".deb: on a clean bookworm root"
if timed 900 clean_root deb bash /test/deb.sh; then
    pass ".deb: installs, user, units, man page, config 640 root:mustc, data kept over remove and reinstall (${elapsed} s)"
else
    fail ".deb (see above)"
fi

# --- the image -----------------------------------------------------------------------------------------------
say "image: $image"
volume=$prefix-data
container=$prefix-serve
podman volume create "$volume" >/dev/null
in_image() { podman run --rm --network host --env-file "$tmp/env" -v "$volume:/data" "$image" "$@"; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
page=http://127.0.0.1:$port

if [[ $(in_image mustc --version | head -n 1) == "$version" ]]; then
    pass "image: mustc --version says $version"
else
    fail "image: mustc --version does not say $version"
fi
# A movie left due: added with no lookup before the container starts.
if in_image mustc add Ann "Amélie" --no-lookup >/dev/null; then
    pass "image: a movie added without lookup into the volume"
else
    fail "image: mustc add --no-lookup into the volume"
fi
command=()
if ! in_image mustc serve --help | grep -q -- '--fetch'; then
    # Until `serve --fetch` and MUSTC_LISTEN are in (issue 43's Swift part), the rest is tried with plain serve.
    fail "image: this mustc has no \`serve --fetch\` (nor, likely, MUSTC_LISTEN): the image's CMD cannot run"
    command=(mustc serve --listen "127.0.0.1:$port")
fi
t0=$EPOCHREALTIME
podman run -d --name "$container" --network host --env-file "$tmp/env" -e "MUSTC_LISTEN=127.0.0.1:$port" \
    -v "$volume:/data" "$image" "${command[@]}" >/dev/null 2>"$tmp/podman-run.err" ||
    cat "$tmp/podman-run.err" >&2 # (podman's "unable to get systemd connection to add healthchecks" without systemd)
served=""
for _ in $(seq 150); do
    if curl -fsS -o /dev/null --max-time 2 "$page/"; then served=yes && break; fi
    [[ $(podman inspect --format '{{.State.Running}}' "$container") == true ]] || break
    sleep 0.2
done
since_start() { awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
if [[ -n $served ]]; then
    pass "image: the page answers on ${command[*]:-MUSTC_LISTEN} (127.0.0.1:$port) $(since_start) s after the start"
else
    fail "image: the page did not answer on 127.0.0.1:$port within 30 s; the container's log:"
    podman logs "$container" 2>&1 | tail -n 20 | sed 's/^/  /' >&2
fi
rated=""
while [[ -n $served ]] && awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a < 90) }'; do
    if podman exec "$container" mustc ratings --format json 2>/dev/null | python3 -c '
import json, sys
movies = [m for member in json.load(sys.stdin)["members"] for m in member["movies"] if m["title"].startswith("Am")]
sys.exit(0 if movies and movies[0]["voteAverage"] is not None else 1)'; then
        rated=yes
        break
    fi
    sleep 2
done
if [[ -n $rated ]]; then
    pass "image: the movie left due was rated by the container itself, $(since_start) s after the start"
else
    fail "image: the movie left due was not rated within 90 s of the start"
fi
if podman exec "$container" mustc add Bob "Spirited Away" >/dev/null; then
    pass "image: podman exec runs mustc add"
else
    fail "image: podman exec mustc add failed"
fi
uid=$(podman exec "$container" id -u || echo none)
if [[ $uid =~ ^[0-9]+$ && $uid != 0 ]]; then pass "image: runs as uid $uid"; else fail "image: runs as uid $uid"; fi
healthcheck=$(podman image inspect --format '{{json .Config.Healthcheck}}' "$image")
if [[ $healthcheck == *healthcheck* ]]; then
    pass "image: has a health check: $healthcheck"
else
    fail "image: no health check in podman image inspect ($healthcheck)"
fi
if [[ -n $served ]] && podman exec -e "MUSTC_LISTEN=127.0.0.1:$port" "$container" /usr/local/bin/healthcheck; then
    pass "image: the health check finds the page healthy"
else
    fail "image: the health check fails on a serving container"
fi
status=0
timed 20 podman stop -t 10 "$container" >/dev/null 2>"$tmp/podman-stop.err" || status=$?
code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
if ((status == 0)) && awk -v e="$elapsed" 'BEGIN { exit !(e <= 12) }' && [[ $code == 0 || $code == 143 ]]; then
    pass "image: podman stop took ${elapsed} s, exit $code"
else
    fail "image: podman stop took ${elapsed} s (status $status), exit $code (want ≤ 12 s, exit 0 or 143)"
fi
if in_image mustc ratings >"$tmp/ratings" && grep -q "Amélie" "$tmp/ratings" && grep -q "Spirited Away" "$tmp/ratings"
then
    pass "image: a new container on the same volume lists the movies"
else
    fail "image: a new container on the same volume does not list the movies"
fi
sizes=$(podman image inspect --format '{{.Size}}' "$image" "$base" | tr '\n' ' ')
read -r image_size base_size <<<"$sizes"
added=$((image_size - base_size))
say "image layers over the base:"
podman history --format '{{.Size}}\t{{.CreatedBy}}' "$image" | grep -v '^0 B' | cut -c1-150 | sed 's/^/  /' >&2
if ((added <= 150 * 1000 * 1000)); then
    pass "image: adds $((added / 1000000)) MB to its base ($((base_size / 1000000)) MB; limit 150 MB)"
else
    fail "image: adds $((added / 1000000)) MB to its base (limit 150 MB)"
fi

# --- compose.yaml --------------------------------------------------------------------------------------------
if /usr/bin/python3 - contrib/container/compose.yaml <<'EOF'; then
import sys, yaml
services = yaml.safe_load(open(sys.argv[1]))["services"]
service = services["mustc"]
assert service["image"].startswith("mustc"), "no mustc image"
assert any(str(v).split(":")[1:2] == ["/data"] for v in service["volumes"]), "no /data volume"
assert any("8080" in str(p) for p in service["ports"]), "no port 8080"
assert service.get("env_file"), "no env_file"
assert service.get("restart") == "unless-stopped", "not restart: unless-stopped"
EOF
    pass "compose.yaml parses: image, /data volume, port 8080, env_file, restart"
else
    fail "contrib/container/compose.yaml"
fi

say "took $((SECONDS - started)) s in all"
if ((${#failures[@]})); then
    say "${#failures[@]} failed:"
    printf '  %s\n' "${failures[@]}" >&2
    exit 1
fi
say "all passed"
