#!/bin/sh
# -v: the facts that shape the result, each as the kernel itself reports
# it, then the usual three lines.  Boxed, it names the box's limit.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 9

# has DESC REGEX: a line of the -v output matches
has() {
    if grep -qE "$2" "$out"; then pass "$1"; else fail "$1" "no line matches /$2/"; fi
}

run "$swap" -v 8M
is "exit status 0" "$rc" -eq 0
has "kernel release" "^kernel: +$(uname -r)\$"
has "page size" "^page size: +$(getconf PAGESIZE) bytes\$"
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
    mode=$(sed 's/.*\[\([a-z]*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
    has "THP mode $mode" "^THP: +$mode "
else
    has "THP: not available" "^THP: +not available"
fi
has "vm.page-cluster" "^page-cluster: +$(cat /proc/sys/vm/page-cluster) "
has "one line per swap device (or 'none')" "^swap device: +($(awk 'NR == 2 { print $1 }' /proc/swaps)|none)"
lim=$(runner_limit_mb)
if [ -z "$lim" ]; then
    has "no memory limit when run plainly" "^memory limit: +none\$"
else
    has "run plainly: the limit this runner is under ($lim MB, as scripts/box reads it)" "^memory limit: +$lim MB\$"
fi
if tail -n 3 "$out" | head -n 1 | grep -q '^start: '; then pass "then the three lines"; else
    fail "then the three lines" "$(tail -n 3 "$out")"; fi

how=$(sh "$box" how) || {
    if [ "${REQUIRE_BOX:-0}" = 1 ]; then fail "boxed: names the 64 MB limit" "no box: $how"
    else skip "boxed: names the 64 MB limit" "no way to make a memory box: ${how#none: }"; fi
    done_testing
}
run sh "$box" run 64M "$swap" -v 8M
has "boxed: names the 64 MB limit" "^memory limit: +64 MB\$"
[ "$failures" -eq 0 ] || show_run
done_testing
