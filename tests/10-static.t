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
# a file a shellcheck, as many at once as there are CPUs, or as make check
# leaves (TEST_JOBS tests run at once); xargs says 123 if any of them
# found something; each one's report in a file of its own, all of them on
# stderr for ok to show.
# shellcheck disable=SC2317 # called by ok
shellcheck_all() {
    jobs=${TEST_JOBS:-1}
    case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
    cpus=$(($(getconf _NPROCESSORS_ONLN) / jobs))
    [ "$cpus" -ge 1 ] || cpus=1
    mkdir "$tmp/sc"
    # shellcheck disable=SC2016 # expanded by that sh
    (cd "$top" && printf '%s\n' scripts/* tests/*.sh tests/*.t .ci/run |
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
