#!/bin/sh
# Static checks: cppcheck on swap.c, shellcheck on every shell script.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 2

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
        _si=$((_si + 1))
        [ "${SHELLCHECK_FOLLOW:-0}" = 0 ] || { echo "$_si $f"; continue; }
        mkdir "$tmp/sc/in.$_si" || return 1
        loads "$f" | while read -r lib; do
            # (Each loaded file's own list once.)
            from=$tmp/sc/from.$(echo "$lib" | tr / .)
            [ -s "$from" ] || { echo "$lib" && sourced "$lib"; } >"$from" || return 1
            # shellcheck disable=SC2046 # the files, a word each
            mkdir -p "$tmp/sc/in.$_si/${lib%/*}" &&
                awk -v target="$f" -f tests/sourced-names.awk $(cat "$from") "$f" >"$tmp/sc/in.$_si/$lib" ||
                return 1
        done || return 1
        echo "$_si $f"
    done
}
# A file a shellcheck, one a CPU, at nice 19: the test whose turn it is
# (nice 0) takes a CPU back when it wants one (root's make check, 6.18,
# 2 CPUs: 66.5 s with one shellcheck at a time, 64.0 s with two; a user's,
# 27.7 s and 19.7-22.8 s); the longest files first, so that no long one
# starts last; xargs says 123 if any of them found something; each one's
# report in a file of its own, all of them on stderr for ok to show.
# shellcheck disable=SC2317 # called by ok
shellcheck_all() {
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || cpus=1
    mkdir "$tmp/sc" || return 1
    # shellcheck disable=SC2016 # expanded by that sh
    (cd "$top" && stand_ins >"$tmp/sc/list" &&
        while read -r i f; do echo "$(wc -c <"$f") $i $f"; done <"$tmp/sc/list" | sort -rn |
        nice -n 19 xargs -n 3 -P "$cpus" sh -c 'case $5 in .ci/run) s=bash ;; *) s=sh ;; esac
            if [ -d "$1/in.$4" ]; then cd "$1/in.$4"; else cd "$2"; fi && shellcheck -s "$s" -x "$2/$5" >"$1/out.$4" 2>&1' sh "$tmp/sc" "$top") && return 0
    cat "$tmp/sc"/out.* >&2
    return 1
}
if command -v shellcheck >/dev/null 2>&1; then
    ok "shellcheck: nothing to report on scripts/, tests/, .ci/run" shellcheck_all
else
    skip "shellcheck" "shellcheck is not installed"
fi
done_testing
