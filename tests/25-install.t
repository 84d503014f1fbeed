#!/bin/sh
# make install and make uninstall, as a packager runs them (DESTDIR): the
# program and its manual page, nothing else, with their modes; the program
# runs by name from where it went; uninstall takes back exactly those.  The
# manual page lints clean and names every option --help names, and no
# other; --version is one line, the version the page's header gives.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 13

dest=$tmp/dest
bin=usr/local/bin/swap page=usr/local/share/man/man1/swap.1
# (make's own output and the files it left, apart.)
run make -s -C "$top" install DESTDIR="$dest"
if [ "$rc" -eq 0 ] && [ ! -s "$err" ]; then
    pass "make install DESTDIR=...: exit status 0, nothing on stderr"
else
    fail "make install DESTDIR=...: exit status 0, nothing on stderr" "exit $rc" "$(cat "$err")"
fi
files=$(cd "$dest" 2>/dev/null && find . ! -type d | sed 's|^\./||' | sort | tr '\n' ' ')
ok "make install put exactly $bin and $page" [ "$files" = "$bin $page " ]
modes=$(stat -c '%a' "$dest/$bin" "$dest/$page" 2>/dev/null | tr '\n' ' ')
ok "their modes: 755 and 644" [ "$modes" = "755 644 " ]

# By name, from PATH, as the help's own example has it.
run env PATH="$dest/usr/local/bin:$PATH" swap 4M
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$out")" -eq 3 ] && sed -n 1p "$out" | grep -q '^start: ' && [ ! -s "$err" ]; then
    pass "the installed program runs by name: 'swap 4M' prints its three lines"
else
    fail "the installed program runs by name: 'swap 4M' prints its three lines" "$(show_run)"
fi

for opt in --version -V; do
    run "$swap" "$opt"
    if [ "$rc" -eq 0 ] && [ "$(wc -l <"$out")" -eq 1 ] && grep -q '^swap [0-9][0-9.]*$' "$out" && [ ! -s "$err" ]; then
        pass "$opt: one line, 'swap VERSION', exit status 0"
    else
        fail "$opt: one line, 'swap VERSION', exit status 0" "$(show_run)"
    fi
done
version=$("$swap" --version)
# The installed page's header, and the checkout's (what man -l shows).
for p in "$dest/$page" "$top/man/swap.1"; do
    th=$(grep '^\.TH ' "$p" 2>/dev/null)
    case $th in
    *"\"$version\""*) pass "${p#"$top"/}: the header names '$version'" ;;
    *) fail "${p#"$top"/}: the header names '$version'" "got: $th" ;;
    esac
done

run make -s -C "$top" uninstall DESTDIR="$dest"
left=$(cd "$dest" 2>/dev/null && find . ! -type d | sed 's|^\./||' | tr '\n' ' ')
if [ "$rc" -eq 0 ] && [ -z "$left" ]; then
    pass "make uninstall DESTDIR=...: no file left (the folders stay, as install found them or made them)"
else
    fail "make uninstall DESTDIR=...: no file left" "exit $rc" "left: $left" "$(cat "$err")"
fi

# Every option of --help in the page, and every option the page describes
# (its OPTIONS section's tags) in --help.
help_opts=$("$swap" --help | grep -o -- '^  --\{0,1\}[A-Za-z][a-z-]*\(, --[a-z-]*\)\{0,1\}' | grep -o -- '-\{1,2\}[A-Za-z][a-z-]*' | sort | tr '\n' ' ')
page_opts=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on && tag { print; tag = 0 } on && /^\.TP/ { tag = 1 }' "$top/man/swap.1" |
    sed 's/\\-/-/g' | grep -o -- '-\{1,2\}[A-Za-z][a-z-]*' | sort | tr '\n' ' ')
if [ -n "$help_opts" ] && [ "$help_opts" = "$page_opts" ]; then
    pass "the page's OPTIONS and --help name the same options: $help_opts"
else
    fail "the page's OPTIONS and --help name the same options" "--help: $help_opts" "page: $page_opts"
fi

if command -v mandoc >/dev/null 2>&1; then
    run mandoc -T lint -W all "$top/man/swap.1"
    if [ "$rc" -eq 0 ] && [ ! -s "$out" ] && [ ! -s "$err" ]; then
        pass "mandoc -T lint -W all: clean"
    else
        fail "mandoc -T lint -W all: clean" "$(cat "$out" "$err")"
    fi
else
    skip "mandoc -T lint -W all: clean" "mandoc is not installed"
fi
if command -v groff >/dev/null 2>&1; then
    run groff -ww -man -z "$top/man/swap.1"
    if [ "$rc" -eq 0 ] && [ ! -s "$err" ]; then
        pass "groff -ww -man -z: no warning"
    else
        fail "groff -ww -man -z: no warning" "$(cat "$err")"
    fi
    # As man shows it on a terminal 80 columns wide.
    run groff -man -Tascii -rLL=78n -P-cbu "$top/man/swap.1"
    wide=$(awk 'length > 80' "$out" | head -3)
    if [ "$rc" -eq 0 ] && [ -s "$out" ] && [ -z "$wide" ]; then
        pass "rendered for 80 columns, no line is wider"
    else
        fail "rendered for 80 columns, no line is wider" "exit $rc" "$wide"
    fi
else
    skip "groff -ww -man -z: no warning" "groff is not installed"
    skip "rendered for 80 columns, no line is wider" "groff is not installed"
fi
done_testing
