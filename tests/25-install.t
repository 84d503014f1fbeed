#!/bin/sh
# make install and make uninstall, as a packager runs them (DESTDIR): the
# program and its manual page, nothing else, with their modes; the program
# runs by name from where it went; uninstall takes back exactly those.  The
# manual page lints clean and names every option --help names, and no
# other, in the synopsis and described; --version is one line, the version
# the page's header gives.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 24

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

# --help and the page name the same options, in the synopsis (--help's
# usage line) and among those described; and every option described is in
# the synopsis but -h and -V, which have a synopsis of their own.
# options_differ HELP PAGE: each option one of them names and the other
# does not, a line each, where.
options_differ() {
    hs=$(awk 'NR == 1 && /^Usage:/ { on = 1 } on && !/^(Usage:|            [^ ])/ { exit } on' "$1" | opts)
    hd=$(grep -o -- '^  --\{0,1\}[A-Za-z][a-z-]*\(, --[a-z-]*\)\{0,1\}' "$1" | opts)
    ps=$(awk '/^\.SH SYNOPSIS/ { on = 1; next } on && /^\.(br|SH)/ { exit } on' "$2" | sed 's/\\-/-/g' | opts)
    pd=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on && tag { print; tag = 0 } on && /^\.TP/ { tag = 1 }' "$2" |
        sed 's/\\-/-/g' | opts)
    in_not "$hs" "$ps" "in --help's usage line, not in the page's synopsis"
    in_not "$ps" "$hs" "in the page's synopsis, not in --help's usage line"
    in_not "$hd" "$pd" "described by --help, not by the page"
    in_not "$pd" "$hd" "described by the page, not by --help"
    in_not "$hs" "$hd" "in --help's usage line, not described there"
    in_not "$(echo "$hd" | tr ' ' '\n' | grep -v -x -e -h -e --help -e -V -e --version)" "$hs" "described by --help, not in its usage line"
}
opts() { grep -o -- '-\{1,2\}[A-Za-z][a-z-]*' | sort -u | tr '\n' ' '; }
in_not() { for _o in $1; do case " $2 " in *" $_o "*) ;; *) echo "$_o: $3" ;; esac; done; }
# shellcheck disable=SC2317 # called by ok
options_agree() { _d=$(options_differ "$@"); [ -z "$_d" ] || { echo "$_d" >&2; return 1; }; }
"$swap" --help >"$tmp/help"
options_differ "$tmp/help" "$top/man/swap.1" >/dev/null
ok "--help's usage line names options ($hs), at least 8" [ "$(echo "$hs" | wc -w)" -ge 8 ]
ok "--help describes options ($hd), at least 12" [ "$(echo "$hd" | wc -w)" -ge 12 ]
ok "--help and the page name the same options, in the synopsis and described" options_agree "$tmp/help" "$top/man/swap.1"
# Planted: --live out of --help's usage line; --pause out of the page's
# synopsis and its OPTIONS.
sed 's/ \[--live|--no-live\]//' "$tmp/help" >"$tmp/help.planted"
got=$(options_differ "$tmp/help.planted" "$top/man/swap.1")
ok "the check catches --live missing from --help's usage line" like "$got" "^--live: in the page's synopsis, not in --help's usage line"
sed '/^\.RB \[ \\-\\-pause \]$/d; /^\.B \\-\\-pause$/d' "$top/man/swap.1" >"$tmp/page.planted"
got=$(options_differ "$tmp/help" "$tmp/page.planted")
ok "the check catches --pause missing from the page (synopsis and OPTIONS)" like "$got" "^--pause: in --help's usage line, not in the page's synopsis"
ok "the check says --pause is not described by the page" like "$got" "^--pause: described by --help, not by the page"

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
