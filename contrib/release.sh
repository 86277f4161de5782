#!/usr/bin/env bash
# Makes mustc's release from a clone, for machines with no Swift:
#   dist/mustc-VERSION-linux-ARCH.tar.gz   a prefix to unpack (tar -C ~/.local --strip-components=1 -xzf …):
#                                           bin/mustc, the man page, bash/zsh/fish completions, the systemd user
#                                           units (share/systemd/user), README, config.example.json, TMDB's notice
#   dist/mustc_VERSION_ARCH.deb            the Debian package: /usr/bin/mustc, system units running as the mustc
#                                           user, data in /var/lib/mustc, config in /etc/mustc/config.json
#
#   contrib/release.sh           both files
#   contrib/release.sh --image   both, then the container image mustc:VERSION and mustc:latest
#                                (contrib/container/Containerfile), with podman, or docker when podman is missing
#
# mustc is built in release with the Swift runtime linked in (--static-swift-stdlib, in its own scratch path
# .build-release), so it needs only Debian's libraries: the `runtime` set of contrib/packages/debian.txt, the one
# place they are named (the .deb's Depends and the image's packages come from it; this script checks that every
# library the binary links comes from a package of that set). VERSION is MustcVersion.current
# (Sources/MustCore/Support/Version.swift), which `mustc --version` prints.
set -euo pipefail
cd "$(dirname "$0")/.."

image=false
case "${1:-}" in
"") ;;
--image) image=true ;;
*)
    echo "usage: contrib/release.sh [--image]" >&2
    exit 64
    ;;
esac

say() { printf 'release.sh: %s\n' "$*" >&2; }
die() {
    say "error: $*"
    exit 1
}

version=$(sed -n 's/^ *public static let current = "\([^"]*\)".*/\1/p' Sources/MustCore/Support/Version.swift)
[[ $version =~ ^[0-9]+(\.[0-9]+)*([~+][A-Za-z0-9.]+)?$ ]] ||
    die "no version found in Sources/MustCore/Support/Version.swift (got \"$version\")"
machine=$(uname -m)                     # the tarball's ARCH: x86_64, aarch64
debian_arch=$(dpkg --print-architecture) # the package's: amd64, arm64
scratch=.build-release
dist=dist
# Every file's date in both archives: the last commit's, so the same commit makes the same archives.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

# The packages of one set of contrib/packages/debian.txt, one a line.
package_set() {
    local package sets
    while read -r package sets; do
        [[ -z $package || $package == \#* ]] && continue
        if [[ " $sets " == *" $1 "* ]]; then echo "$package"; fi
    done <contrib/packages/debian.txt
}
mapfile -t runtime < <(package_set runtime)
((${#runtime[@]})) || die "contrib/packages/debian.txt names no package of the runtime set"

build() {
    local started=$SECONDS
    say "building mustc $version (release, static Swift runtime, in $scratch)"
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mustc
    built=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mustc
    say "built in $((SECONDS - started)) s"
    local shown
    shown=$("$built" --version | head -n 1)
    [[ $shown == "$version" ]] || die "$built --version says \"$shown\", not $version"
}

# Each library the binary links (its NEEDED entries, resolved as the loader resolves them here) must come from a
# package of the runtime set; the libraries those load are those packages' own dependencies. No Swift library may be
# among them: the runtime is linked in.
check_libraries() {
    local library path name line package owners=() missing=()
    local -A resolved=()
    while read -r name line; do
        if [[ $line == "=> "* ]]; then
            path=${line#=> }
            resolved[$name]=${path%% (*}
        else
            resolved[${name##*/}]=$name
        fi
    done < <(ldd "$built")
    while read -r library; do
        [[ $library == libswift* || $library == libFoundation* || $library == lib_Foundation* ]] &&
            die "$built links $library: the Swift runtime is not linked in"
        path=${resolved[$library]:-}
        [[ -n $path && -e $path ]] || die "$built needs $library, which is not installed here"
        # dpkg knows a file by the path its package ships (/lib/… or /usr/lib/… on a merged /usr).
        package=$(dpkg-query -S "*/$library" 2>/dev/null | while IFS= read -r line; do
            if [[ $(realpath "${line#*: }") == "$(realpath "$path")" ]]; then
                echo "${line%%:*}"
                break
            fi
        done)
        [[ -n $package ]] || die "no Debian package owns $path ($library)"
        owners+=("$package")
        [[ " ${runtime[*]} " == *" $package "* ]] || missing+=("$package ($library)")
    done < <(objdump -p "$built" | awk '$1 == "NEEDED" { print $2 }')
    ((${#missing[@]} == 0)) ||
        die "$built needs ${missing[*]}: add them to the runtime set in contrib/packages/debian.txt"
    say "links libraries of: $(printf '%s\n' "${owners[@]}" | sort -u | tr '\n' ' ')"
}

manual() {
    # swift-argument-parser's generate-manual, the tool behind its plugin (and contrib/install.sh's man page), run
    # on the release binary. Built from the checkout alone: the plugin would rebuild every product of the package
    # without the static runtime (a second release build) first.
    local parser=$scratch/checkouts/swift-argument-parser log
    [[ -f $parser/Package.swift ]] || die "no swift-argument-parser checkout in $scratch/checkouts"
    log=$(mktemp)
    mkdir -p "$work/manual"
    if ! swift build --package-path "$parser" --scratch-path "$scratch/generate-manual" --product generate-manual \
        >"$log" 2>&1 ||
        ! "$scratch/generate-manual/debug/generate-manual" "$built" --output-directory "$work/manual" \
            --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)" >"$log" 2>&1 ||
        [[ ! -s $work/manual/mustc.1 ]]; then
        tail -n 20 "$log" >&2
        rm -f "$log"
        die "generate-manual made no man page"
    fi
    rm -f "$log"
    cp "$work/manual/mustc.1" "$work/mustc.1"
}

# The tree both archives are made from, in $work/tree: a prefix (bin, share).
stage() {
    local tree=$work/tree
    install -D -m 755 "$built" "$tree/bin/mustc"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tree/bin/mustc"
    install -D -m 644 "$work/mustc.1" "$tree/share/man/man1/mustc.1"
    "$built" --generate-completion-script bash >"$work/bash"
    "$built" --generate-completion-script zsh >"$work/zsh"
    "$built" --generate-completion-script fish >"$work/fish"
    sed -i '1{/^#!/d}' "$work/bash" # sourced by bash-completion, never run
    install -D -m 644 "$work/bash" "$tree/share/bash-completion/completions/mustc"
    install -D -m 644 "$work/zsh" "$tree/share/zsh/site-functions/_mustc"
    install -D -m 644 "$work/fish" "$tree/share/fish/vendor_completions.d/mustc.fish"
    # Unpacked into ~/.local, the user units land in ~/.local/share/systemd/user, where `systemctl --user` finds
    # them, and their ExecStart (%h/.local/bin/mustc) is the unpacked binary.
    install -D -m 644 -t "$tree/share/systemd/user" contrib/systemd/mustc-fetch.service \
        contrib/systemd/mustc-fetch.timer contrib/systemd/mustc-serve.service
    install -D -m 644 -t "$tree/share/doc/mustc" README.md config.example.json
    "$built" --version | tail -n +2 >"$work/NOTICE"
    install -D -m 644 "$work/NOTICE" "$tree/share/doc/mustc/NOTICE"
}

tarball() {
    local name=mustc-$version-linux-$machine
    tarball=$dist/$name.tar.gz
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
        --transform="s|^\\.|$name|" -C "$work/tree" -cf - . | gzip -9n >"$tarball"
    say "wrote $tarball ($(du -h "$tarball" | cut -f1))"
}

debian_package() {
    local root=$work/deb maintainer date
    deb=$dist/mustc_${version}_$debian_arch.deb
    maintainer=${MUSTC_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "mustc <mustc@invalid>")}
    date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
    rm -rf "$root"
    install -D -m 755 "$work/tree/bin/mustc" "$root/usr/bin/mustc"
    install -d -m 755 "$root/usr/share/man/man1" "$root/usr/share/doc/mustc"
    gzip -9n <"$work/mustc.1" >"$root/usr/share/man/man1/mustc.1.gz"
    install -D -m 644 "$work/bash" "$root/usr/share/bash-completion/completions/mustc"
    install -D -m 644 "$work/zsh" "$root/usr/share/zsh/vendor-completions/_mustc"
    install -D -m 644 "$work/fish" "$root/usr/share/fish/vendor_completions.d/mustc.fish"
    install -D -m 644 -t "$root/lib/systemd/system" contrib/systemd/system/mustc-fetch.service \
        contrib/systemd/system/mustc-fetch.timer contrib/systemd/system/mustc-serve.service
    # The config is a conffile: `apt remove` keeps it, a reinstall finds it, an upgrade keeps the admin's edits.
    # Shipped root:root 640; postinst gives it the mustc group.
    install -D -m 640 contrib/debian/config.json "$root/etc/mustc/config.json"
    install -m 644 config.example.json "$work/NOTICE" "$root/usr/share/doc/mustc/"
    gzip -9n <README.md >"$root/usr/share/doc/mustc/README.md.gz"
    cat >"$root/usr/share/doc/mustc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: mustc
Comment: $(cat "$work/NOTICE")

Files: *
Copyright: $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y) the mustc authors
License: unknown
 No licence has been chosen for mustc yet.
EOF
    printf 'mustc (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
        "$version" "$version" "$maintainer" "$date" | gzip -9n >"$root/usr/share/doc/mustc/changelog.gz"
    install -d -m 755 "$root/DEBIAN"
    install -m 755 contrib/debian/postinst contrib/debian/prerm contrib/debian/postrm "$root/DEBIAN/"
    echo /etc/mustc/config.json >"$root/DEBIAN/conffiles"
    local depends
    depends=$(printf '%s, ' adduser "${runtime[@]}")
    cat >"$root/DEBIAN/control" <<EOF
Package: mustc
Version: $version
Architecture: $debian_arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: ${depends%, }
Section: video
Priority: optional
Description: family movie lists with their TMDB ratings kept fresh
 mustc keeps each family member's list of movies and refreshes their ratings
 from The Movie Database (TMDB) in the background, on each movie's own
 schedule. The family reads the lists, what changed and tonight's pick on a
 web page served on the home network.
 .
 This package runs the fetch and the page as system services (not started on
 install) as the mustc user, with the data in /var/lib/mustc and the
 configuration in /etc/mustc/config.json.
 .
 This product uses the TMDB API but is not endorsed or certified by TMDB.
EOF
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
        xargs -0 md5sum >DEBIAN/md5sums)
    chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
    say "wrote $deb ($(du -h "$deb" | cut -f1)), Depends: ${depends%, }"
}

container_image() {
    local engine context=$work/image
    if command -v podman >/dev/null; then
        engine=(podman build --format docker)
    elif command -v docker >/dev/null; then
        engine=(docker build)
    else
        die "--image needs podman or docker"
    fi
    install -D -m 755 "$work/tree/bin/mustc" "$context/mustc"
    install -m 644 "$work/NOTICE" README.md "$context/"
    install -m 755 contrib/container/healthcheck "$context/healthcheck"
    say "building mustc:$version and mustc:latest with ${engine[0]}"
    "${engine[@]}" -f contrib/container/Containerfile --build-arg "RUNTIME_PACKAGES=${runtime[*]}" \
        --build-arg "VERSION=$version" -t "mustc:$version" -t mustc:latest "$context"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dist"
contrib/packages/debian.sh build
build
manual
check_libraries
stage
tarball
debian_package
if $image; then container_image; fi
say "done: $tarball $deb$($image && echo " mustc:$version mustc:latest")"
