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

# From the top, where the tests' "source=tests/lib.sh" directives point;
# a file a shellcheck, as many at once as there are CPUs (this test runs
# at nice 15, so they take what the others leave, and all of it once they
# are done), the longest files first, so that no long one starts last;
# xargs says 123 if any of them found something; each one's report in a
# file of its own, all of them on stderr for ok to show.
# shellcheck disable=SC2317 # called by ok
shellcheck_all() {
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || cpus=1
    mkdir "$tmp/sc"
    # shellcheck disable=SC2016 # expanded by that sh
    (cd "$top" && wc -c scripts/* tests/*.sh tests/*.t .ci/run | sort -rn | awk '$2 != "total" { print $2 }' |
        xargs -P "$cpus" -I{} sh -c 'case $1 in *.ci/run) s=bash ;; *) s=sh ;; esac
            shellcheck -s "$s" -x "$1" >"$2/$(echo "$1" | tr /. __)" 2>&1' sh {} "$tmp/sc") && return 0
    cat "$tmp/sc"/* >&2
    return 1
}
if command -v shellcheck >/dev/null 2>&1; then
    ok "shellcheck: nothing to report on scripts/, tests/, .ci/run" shellcheck_all
else
    skip "shellcheck" "shellcheck is not installed"
fi
done_testing
