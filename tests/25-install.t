#!/bin/sh
# make install and make uninstall, as a packager runs them (DESTDIR): the
# program and its manual page, nothing else, with their modes; the program
# runs by name from where it went; uninstall takes back exactly those.  The
# manual page lints clean and names every option --help names, and no
# other; --version is one line, the version the page's header gives.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 20

dest=$tmp/dest
bin=usr/local/bin/swap page=usr/local/share/man/man1/swap.1
# (make's own output and the files it left, apart.)
run make -s -C "$top" install DESTDIR="$dest"
ok "make install DESTDIR=...: exit status 0, nothing on stderr" clean
files=$(cd "$dest" 2>/dev/null && find . ! -type d | sed 's|^\./||' | sort | tr '\n' ' ')
ok "make install put exactly $bin and $page" [ "$files" = "$bin $page " ]
modes=$(stat -c '%a' "$dest/$bin" "$dest/$page" 2>/dev/null | tr '\n' ' ')
ok "their modes: 755 and 644" [ "$modes" = "755 644 " ]

# By name, from PATH, as the help's own example has it.
run env PATH="$dest/usr/local/bin:$PATH" swap 4M
ok "the installed program runs by name: 'swap 4M', exit status 0, nothing on stderr" clean
ok "'swap 4M': its three lines" [ "$(grep -c -E '^(start|after)' "$out")" -eq 3 ]

for opt in --version -V; do
    run "$swap" "$opt"
    ok "$opt: exit status 0, nothing on stderr" clean
    ok "$opt: one line, 'swap VERSION'" [ "$(grep -c '^swap [0-9][0-9.]*$' "$out")/$(wc -l <"$out")" = 1/1 ]
done
version=$("$swap" --version)
# The installed page's header, and the checkout's (what man -l shows).
for p in "$dest/$page" "$top/man/swap.1"; do
    th=$(grep '^\.TH ' "$p" 2>/dev/null)
    ok "${p#"$top"/}: the header names '$version'" matches "$th" "*\"$version\"*"
done

run make -s -C "$top" uninstall DESTDIR="$dest"
left=$(cd "$dest" 2>/dev/null && find . ! -type d | sed 's|^\./||' | tr '\n' ' ')
ok "make uninstall DESTDIR=...: exit status 0, nothing on stderr" clean
ok "make uninstall DESTDIR=...: no file left (the folders stay, as install found them or made them)" [ -z "$left" ]

# Every option of --help in the page, and every option the page describes
# (its OPTIONS section's tags) in --help.
help_opts=$("$swap" --help | grep -o -- '^  --\{0,1\}[A-Za-z][a-z-]*\(, --[a-z-]*\)\{0,1\}' | grep -o -- '-\{1,2\}[A-Za-z][a-z-]*' | sort | tr '\n' ' ')
page_opts=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on && tag { print; tag = 0 } on && /^\.TP/ { tag = 1 }' "$top/man/swap.1" |
    sed 's/\\-/-/g' | grep -o -- '-\{1,2\}[A-Za-z][a-z-]*' | sort | tr '\n' ' ')
ok "--help names options ($help_opts)" [ -n "$help_opts" ]
ok "the page's OPTIONS and --help name the same options" [ "$help_opts" = "$page_opts" ]

if command -v mandoc >/dev/null 2>&1; then
    run mandoc -T lint -W all "$top/man/swap.1"
    ok "mandoc -T lint -W all: clean" silent
else
    skip "mandoc -T lint -W all: clean" "mandoc is not installed"
fi
if command -v groff >/dev/null 2>&1; then
    run groff -ww -man -z "$top/man/swap.1"
    ok "groff -ww -man -z: no warning" clean
    # As man shows it on a terminal 80 columns wide.
    run groff -man -Tascii -rLL=78n -P-cbu "$top/man/swap.1"
    wide=$(awk 'length > 80' "$out" | head -3)
    ok "rendered for 80 columns: exit status 0, nothing on stderr" clean
    ok "rendered for 80 columns: the page" [ -s "$out" ]
    ok "rendered for 80 columns: no line is wider" [ -z "$wide" ]
else
    skip "groff -ww -man -z: no warning" "groff is not installed"
    for c in "exit status 0, nothing on stderr" "the page" "no line is wider"; do
        skip "rendered for 80 columns: $c" "groff is not installed"
    done
fi
done_testing
