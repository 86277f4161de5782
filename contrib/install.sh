#!/usr/bin/env bash
# Installs mustc for the current user:
#   ${PREFIX:-$HOME/.local}/bin/mustc                                   a release build
#   $PREFIX/share/bash-completion/completions/mustc                      bash completion
#   $PREFIX/share/zsh/site-functions/_mustc                              zsh completion
#   $PREFIX/share/fish/vendor_completions.d/mustc.fish                   fish completion
#   $PREFIX/share/man/man1/mustc.1                                       the man page (swift-argument-parser's
#                                                                        generate-manual plugin)
#   ${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/mustc-fetch.{service,timer}   the timer, not enabled
#   ${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/mustc-serve.service           the page, not started
#
#   contrib/install.sh               build and install (first the Debian packages the build needs, from
#                                    contrib/packages/debian.txt, when missing)
#   contrib/install.sh --uninstall   remove exactly those files (same PREFIX); the database and the
#                                    config, with the key, stay where they are
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${PREFIX:-$HOME/.local}
units=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
binary=$prefix/bin/mustc
bash_completion=$prefix/share/bash-completion/completions/mustc
zsh_completion=$prefix/share/zsh/site-functions/_mustc
fish_completion=$prefix/share/fish/vendor_completions.d/mustc.fish
manual=$prefix/share/man/man1/mustc.1
service=$units/mustc-fetch.service
timer=$units/mustc-fetch.timer
serve=$units/mustc-serve.service

say() { printf 'install.sh: %s\n' "$*"; }

has_user_systemd() { command -v systemctl >/dev/null && systemctl --user show-environment >/dev/null 2>&1; }

uninstall() {
    if [[ -e $timer ]] && has_user_systemd; then
        systemctl --user disable --now mustc-fetch.timer >/dev/null 2>&1 || true
    fi
    if [[ -e $serve ]] && has_user_systemd; then
        systemctl --user disable --now mustc-serve.service >/dev/null 2>&1 || true
    fi
    for file in "$binary" "$bash_completion" "$zsh_completion" "$fish_completion" "$manual" "$service" "$timer" \
        "$serve"; do
        if [[ -e $file ]]; then
            rm -f "$file"
            say "removed $file"
        fi
    done
    if has_user_systemd; then systemctl --user daemon-reload || true; fi
    say "kept the database and ${XDG_CONFIG_HOME:-$HOME/.config}/mustc (remove them yourself if you want them gone)"
}

# The man page comes from swift-argument-parser's plugin, which builds the package in release mode (already
# built, so mostly linking; about a minute here) and needs no network once the packages are resolved.
build_manual() {
    local page=.build/plugins/GenerateManual/outputs/mustc/mustc.1 log
    log=$(mktemp)
    rm -f "$page"
    if swift package plugin generate-manual --configuration release >"$log" 2>&1 && [[ -s $page ]]; then
        install -D -m 644 "$page" "$manual"
        say "installed $manual"
    else
        say "warning: no man page (generate-manual failed):" >&2
        tail -n 5 "$log" >&2
    fi
    rm -f "$log"
}

install_units() {
    mkdir -p "$units"
    # The units expect ~/.local/bin/mustc; point them at this PREFIX's binary instead.
    sed "s|^ExecStart=%h/.local/bin/mustc|ExecStart=$binary|" contrib/systemd/mustc-fetch.service >"$service"
    cp contrib/systemd/mustc-fetch.timer "$timer"
    sed "s|^ExecStart=%h/.local/bin/mustc|ExecStart=$binary|" contrib/systemd/mustc-serve.service >"$serve"
    chmod 644 "$service" "$timer" "$serve"
    say "installed $service, $timer and $serve (not started)"
    if has_user_systemd; then systemctl --user daemon-reload || true; fi
}

install_all() {
    contrib/packages/debian.sh build
    swift build -c release --product mustc
    local built
    built=$(swift build -c release --show-bin-path)/mustc
    install -D -m 755 "$built" "$binary"
    say "installed $binary ($("$binary" --version | head -n 1))"
    install -D -m 644 <("$binary" --generate-completion-script bash) "$bash_completion"
    install -D -m 644 <("$binary" --generate-completion-script zsh) "$zsh_completion"
    install -D -m 644 <("$binary" --generate-completion-script fish) "$fish_completion"
    say "installed completions for bash, zsh and fish under $prefix/share"
    build_manual
    install_units
    case ":$PATH:" in
        *":$prefix/bin:"*) ;;
        *) say "note: $prefix/bin is not on your PATH" ;;
    esac
    cat <<EOF
install.sh: next steps (see "Use it for real" in README.md):
  put the TMDB key in ${XDG_CONFIG_HOME:-$HOME/.config}/mustc/config.json, mode 600:
    {"tmdb": {"apiKey": "…"}}
  then start the timer:
    systemctl --user enable --now mustc-fetch.timer
  and, for the family's page (see docs/page.md):
    systemctl --user enable --now mustc-serve.service
  zsh finds the completion once $prefix/share/zsh/site-functions is on its fpath.
EOF
}

case "${1:-}" in
    --uninstall) uninstall ;;
    "") install_all ;;
    *)
        echo "usage: contrib/install.sh [--uninstall]   (PREFIX=… to install elsewhere than ~/.local)" >&2
        exit 64
        ;;
esac
