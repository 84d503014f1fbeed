# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# TAP and checks: ok DESC CMD..., is DESC GOT OP WANT, their predicates,
# run CMD..., and readers of swap's lines.
plan() { echo "1..$1"; }
pass() { n=$((n + 1)); echo "ok $n - $1"; }
# fail NAME [DETAIL...]: on stdout, and on stderr, which prove and CI show.
fail() {
    n=$((n + 1)) failures=$((failures + 1))
    failed=$(fail_text "$@")
    printf '%s\n' "$failed"
    printf '%s\n' "$failed" >&2
}
fail_text() {
    echo "not ok $n - $1"
    shift
    [ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/# /'
    [ "${rc:-0}" != 137 ] ||
        echo "# the last run ended with exit 137 (SIGKILL): if swap was free and the box small (16 MB), the box's OOM killer after reclaim found only pages still being written to swap (docs/answers.md, answer 3); run the test again"
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
bail() { echo "Bail out! $*"; exit 1; }
done_testing() { exit $((failures > 0)); }
# box_skip_all, box_skip: skipped, or with REQUIRE_BOX=1 failed.
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
box_skip_all() {
    [ "${REQUIRE_BOX:-0}" = 1 ] || skip_all "$1"
    printf '1..1\nnot ok 1 - box test could not run (REQUIRE_BOX=1): %s\n' "$1"
    exit 1
}
box_skip() {
    if [ "${REQUIRE_BOX:-0}" = 1 ]; then fail "$1" "box test could not run (REQUIRE_BOX=1): $2"; else skip "$1" "$2"; fi
}
# ok DESC CMD...: CMD succeeds, run as it is (no eval: tests/10 reads it).
ok() {
    ok_what=$1 && shift
    if "$@" 2>"$tmp/ok.err"; then
        pass "$ok_what"
        return 0
    fi
    set -- "check: $*"
    [ ! -s "$tmp/ok.err" ] || set -- "$@" "$(cat "$tmp/ok.err")"
    [ -z "${ran-}" ] || set -- "$@" "the last run: exit $rc; stdout:" "$(head -n 20 "$out")" "stderr:" "$(head -n 20 "$err")"
    fail "$ok_what" "$@"
    return 1
}
is() {
    if [ -n "$2" ] && test "$2" "$3" "$4" 2>/dev/null; then pass "$1"; else fail "$1" "got '$2', want $3 $4"; fi
}
# Predicates of the last run: clean (exit 0, nothing on stderr), silent
# (nor on stdout), refused_saying STATUS TEXT (nothing on stdout, one line
# on stderr saying TEXT), failed_saying STATUS TEXT, refused_unrun PROG
# WHY MARK (root refused PROG, 126, saying WHY, and MARK, which PROG makes,
# is not there).  Of anything: line_is N ERE [FILE] (line N of $out), has
# FILE ERE, like STRING ERE, matches STRING PATTERN (case's), not CMD,
# none CMD (CMD prints nothing).
clean() { [ "$rc" -eq 0 ] && [ ! -s "$err" ]; }
silent() { clean && [ ! -s "$out" ]; }
refused_saying() { [ "$rc" -eq "$1" ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$2" "$err"; }
failed_saying() { [ "$rc" -eq "$1" ] && grep -q -- "$2" "$err"; }
refused_unrun() {
    [ ! -e "$3" ] || { echo "$1 ran: $(cat "$3")" >&2; return 1; }
    refused_saying 126 "refusing to run $1 as root: .*$2"
}
line_is() { sed -n "$1p" "${3:-$out}" | grep -qE -- "$2"; }
has() { grep -qE -- "$2" "$1"; }
like() { printf '%s\n' "$1" | grep -qE -- "$2"; }
# shellcheck disable=SC2254 # the pattern is a pattern
matches() { case $1 in $2) return 0 ;; esac; return 1; }
not() { ! "$@"; }
none() { [ -z "$("$@")" ]; }
# py_ok DESC CHECK: ok, or a skip without python3 (CHECK reads with it).
py_ok() { if command -v python3 >/dev/null 2>&1; then ok "$1" "$2"; else skip "$1" "python3 is not installed (its csv module reads the file)"; fi; }
# run CMD...: $out, $err, $rc; a program ended after TEST_RUN_MAX s (300),
# which fails and ends the test (a hung swap: begin's probe, 10 s).
run_max=${TEST_RUN_MAX:-300}
run() {
    read -r _r0 _ </proc/uptime
    case $(command -v -- "$1") in
        /*) timeout -k 5 "$run_max" "$@" ;;
        *) "$@" ;;
    esac >"$out" 2>"$err"
    rc=$? ran=1
    [ "$rc" -ne 124 ] || ran_out "$@"
}
ran_out() {
    read -r _r1 _ </proc/uptime
    [ $((${_r1%.*} - ${_r0%.*})) -ge "$run_max" ] || return 0
    fail "a run ends within $run_max s" "it did not (TEST_RUN_MAX=$run_max): $*" "stdout:" "$(tail -n 5 "$out")" "stderr:" "$(tail -n 5 "$err")"
    exit 1
}
show_run() { diag "exit $rc; stdout:" "$(cat "$out")" "stderr:" "$(cat "$err")"; }
# reported LINE WHAT [FILE]: rss, swap, major or seconds of line 1-3 of the
# report, as the scripts read it.
reported() {
    awk -v n="$1" -v what="$2" "$report_awk"'
        report($0) && R_label ~ /^(start|after)/ {
            L[++k] = what == "rss" ? R_rss : what == "swap" ? R_swap : what == "major" ? R_major : R_seconds
        }
        END { i = (k > 3 ? k - 3 : 0) + n; if (i <= k) print L[i] }' "${3:-$out}"
}
seconds_gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }
vmstat_count() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# strips FILE: its page maps (-m); strip N [FILE]: the Nth; count TEXT CHARS.
strips() { grep -c '^          \[[# .:]*\]$' "$1"; }
strip() { grep '^          \[[# .:]*\]$' "${2:-$out}" | sed -n "$1p" | sed 's/^ *\[//; s/\]$//'; }
count() { printf '%s' "$1" | tr -cd "$2" | wc -c; }
