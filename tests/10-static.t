#!/bin/sh
# Static checks: cppcheck on swap.c, shellcheck on every shell script.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 5

if command -v cppcheck >/dev/null 2>&1; then
    run cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
        --inline-suppr "$top/swap.c"
    ok "cppcheck: nothing to report on swap.c" silent
else
    skip "cppcheck" "cppcheck is not installed"
fi

# loads FILE: the files FILE loads, as its "shellcheck source=" lines name
# them (from the top); sourced FILE: those, and the ones they load.
# shellcheck disable=SC2317 # called by shellcheck_all
loads() { sed -n 's/^[[:space:]]*# shellcheck source=\([^[:space:]]*\).*/\1/p' "$1"; }
# shellcheck disable=SC2317 # called by shellcheck_all
sourced() { loads "$1" | while read -r _sf; do echo "$_sf"; sourced "$_sf"; done; }
# Each shell script is checked on its own (-x): what it takes from the
# files it loads, shellcheck finds in a short stand-in for each, in a
# folder of that script's own, where its "source=" lines lead
# (tests/sourced-names.awk: what those files define that it names).
# Following the files themselves (SHELLCHECK_FOLLOW=1) gives the same
# findings (docs/tests.md says how that was tried) at twice the cost: each
# file that loads tests/lib.sh or scripts/box takes 0.4 to 2 s more there.
# The loaded files are checked too, each as a script of its own.
# shellcheck disable=SC2317 # called by shellcheck_all
stand_ins() {
    _si=0
    for f in scripts/* tests/*.sh tests/lib/*.sh tests/*.t .ci/run; do
        [ -f "$f" ] || continue
        _si=$((_si + 1))
        [ "${SHELLCHECK_FOLLOW:-0}" = 0 ] || { echo "$_si $f"; continue; }
        mkdir "$sc/in.$_si" || return 1
        loads "$f" | while read -r lib; do
            # (Each loaded file's own list once.)
            from=$sc/from.$(echo "$lib" | tr / .)
            [ -s "$from" ] || { echo "$lib" && sourced "$lib"; } >"$from" || return 1
            # shellcheck disable=SC2046 # the files, a word each
            mkdir -p "$sc/in.$_si/${lib%/*}" &&
                awk -v target="$f" -f "$top/tests/sourced-names.awk" $(cat "$from") "$f" >"$sc/in.$_si/$lib" ||
                return 1
        done || return 1
        echo "$_si $f"
    done
}
# Checks TREE's scripts (shellcheck_all TREE [CACHE]), one a CPU at nice
# 19 (the test holding the turn takes a CPU back), longest first; one found
# clean is not checked again while its key (its text and stand-ins, the
# version and options of shellcheck) is in CACHE.  $sc/ran.*: what ran.
# shellcheck disable=SC2317 # called by ok
shellcheck_all() {
    sc_top=$1 sc_cache=${2-} sc=$tmp/sc.$((${sc_n:-0} + 1)) sc_n=$((${sc_n:-0} + 1))
    [ "${SHELLCHECK_FOLLOW:-0}" = 0 ] || sc_cache=''
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || cpus=1
    mkdir "$sc" || return 1
    { shellcheck --version && echo "${SHELLCHECK_OPTS-}"; } >"$sc/seed" 2>&1 || return 1
    [ -z "$sc_cache" ] || [ ! -f "$sc_cache" ] || cp "$sc_cache" "$sc/cache" || return 1
    # shellcheck disable=SC2016 # expanded by that sh
    (cd "$sc_top" && stand_ins >"$sc/list" &&
        while read -r i f; do echo "$(wc -c <"$f") $i $f"; done <"$sc/list" | sort -rn |
        nice -n 19 xargs -n 3 -P "$cpus" sh -c 'case $5 in .ci/run) s=bash ;; *) s=sh ;; esac
            key=$({ cat "$1/seed" && echo "$s $5" && cat "$2/$5" &&
                { [ ! -d "$1/in.$4" ] || (cd "$1/in.$4" && find . -type f | LC_ALL=C sort | while read -r l; do echo "$l" && cat "$l"; done); }; } |
                sha256sum) && key=${key%% *} || exit 1
            if [ -f "$1/cache" ] && grep -qx "$key" "$1/cache"; then echo "$key" >"$1/clean.$4"; exit 0; fi
            echo "$5" >"$1/ran.$4"
            if [ -d "$1/in.$4" ]; then cd "$1/in.$4"; else cd "$2"; fi &&
                shellcheck --norc -s "$s" -x "$2/$5" >"$1/out.$4" 2>&1 && echo "$key" >"$1/clean.$4"' sh "$sc" "$sc_top")
    sc_rc=$?
    if [ -n "$sc_cache" ]; then
        cat "$sc"/clean.* 2>/dev/null | LC_ALL=C sort >"$sc/new" &&
            cp "$sc/new" "$sc_cache.$$" && mv -f "$sc_cache.$$" "$sc_cache"
    fi
    [ "$sc_rc" -ne 0 ] || return 0
    cat "$sc"/out.* >&2
    return 1
}
# The cache only in a checkout of this user's own that no one else may
# write to: root under sudo in hers neither reads nor writes it.
cache=''
[ ! -O "$top/tests" ] || [ -L "$top/tests" ] || [ -n "$(find "$top/tests" -maxdepth 0 -perm /022)" ] ||
    cache=$top/tests/shellcheck.clean
# (--norc, 0.8.0 and later: else shellcheck obeys a shellcheckrc in any
# folder above the file, /tmp's too, where anyone may put one.)
sc_why="shellcheck is not installed"
! command -v shellcheck >/dev/null 2>&1 ||
    sc_why="this shellcheck has no --norc (0.8.0 and later): it would obey a shellcheckrc anyone may leave in /tmp"
if shellcheck --norc --version >/dev/null 2>&1; then
    ok "shellcheck: nothing to report on scripts/, tests/, .ci/run" shellcheck_all "$top" "$cache"
    # A tree of two scripts, one loading the other, checked with one cache:
    # the same again (no shellcheck); a variable nothing reads added to the
    # one; a variable the other reads taken from the one.  checked_mini
    # STATUS FILES [ERE]: exit STATUS (0 or not), shellcheck run on just
    # FILES, its report saying ERE.
    mini=$tmp/mini
    # shellcheck disable=SC2016 # the scripts' text
    mkdir -p "$mini/scripts" "$mini/tests" &&
        printf '#!/bin/sh\nkept=1\necho "$kept"\n# shellcheck disable=SC2034 # two.t reads it\nnamed=2\n' >"$mini/scripts/one" &&
        printf '#!/bin/sh\n# shellcheck source=scripts/one\n. ./one\necho "$named"\n' >"$mini/tests/two.t"
    checked_mini() {
        shellcheck_all "$mini" "$tmp/mini.clean" 2>"$tmp/sc.err"
        case $1:$? in 0:0|1:[1-9]*) ;; *) echo "exit status not as wanted ($1)"; return 1 ;; esac
        mini_ran=$(cat "$sc"/ran.* 2>/dev/null | sort | tr '\n' ' ')
        [ "$mini_ran" = "$2" ] || { echo "shellcheck ran on '$mini_ran', not '$2'"; return 1; }
        [ -z "${3-}" ] || has "$tmp/sc.err" "$3"
    }
    checked_mini 0 'scripts/one tests/two.t ' >/dev/null
    ok "a tree found clean, checked again with its cache: clean, and shellcheck not run" checked_mini 0 ''
    # (Anyone may leave a shellcheckrc in a folder above a checkout.)
    echo disable=all >"$mini/.shellcheckrc"
    printf 'unread_x=3\n' >>"$mini/scripts/one"
    ok "a variable nothing reads added to a file cached clean, a shellcheckrc saying disable=all above it: that file alone checked, and reported" \
        checked_mini 1 'scripts/one ' 'SC2034.*unread_x'
    # shellcheck disable=SC2016 # the script's text
    printf '#!/bin/sh\nkept=1\necho "$kept"\n' >"$mini/scripts/one"
    ok "a variable taken from the file another loads: that other, unchanged, checked again and reported" \
        checked_mini 1 'scripts/one tests/two.t ' 'SC2154.*named'
else
    skip "shellcheck" "$sc_why"
    for w in "the same again" "a file changed" "a file it loads changed"; do skip "shellcheck's cache: $w" "$sc_why"; done
fi
done_testing
