#!/bin/sh
# scripts/cache-vs-anon, kept short (swappiness 0 and 200, few re-reads):
# the kernel and cgroup first, a row per value for the warm cache and for
# the re-read case, and afterwards no box, no file and vm.swappiness as it
# was.  Not root: one line and a non-zero exit.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cva=$top/scripts/cache-vs-anon

if ! is_root; then
    run sh "$cva"
    plan 2
    is "not root: exit status 1" "$rc" -eq 1
    if [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'root' "$err" && [ ! -s "$out" ]; then
        pass "not root: one line says so ($(cat "$err"))"
    else
        fail "not root: one line says so" "$(cat "$out" "$err")"
    fi
    done_testing
fi
need_box
need_swap
plan 10

if command -v setpriv >/dev/null 2>&1; then
    run setpriv --reuid=65534 --regid=65534 --clear-groups sh "$cva"
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'root' "$err" && [ ! -s "$out" ]; then
        pass "as nobody: one line says it needs root, exit 1"
    else
        fail "as nobody: one line says it needs root, exit 1" "exit $rc" "$(cat "$out" "$err")"
    fi
else
    skip "as nobody: one line says it needs root" "setpriv is not installed"
fi

swappiness=$(cat /proc/sys/vm/swappiness)
run env CVA_REREAD_MAX=20 sh "$cva" 0 200
show_run
is "exit status 0" "$rc" -eq 0
if head -n 1 "$out" | grep -qE "^kernel $(uname -r), cgroup v[12] \(box: .*\), multi-generational LRU: "; then
    pass "first: the kernel, the cgroup version and the LRU"
else
    fail "first: the kernel, the cgroup version and the LRU" "$(head -n 1 "$out")"
fi
rowre='^(warm|re-read) +(0|200) +[0-9]+ MB +[0-9]+ MB +[0-9]+ MB +[0-9]+ +[0-9]+\.[0-9]{2} s +[0-9]+ MB +[0-9]+ +([0-9]+|-)$'
is "four rows: warm and re-read, for 0 and 200" "$(grep -cE "$rowre" "$out")" -eq 4
col() { awk -v c="$1" -v s="$2" -v f="$3" '$1 == c && $2 == s { print $f }' "$out"; }
is "warm: the 40 MB file was in the box's cache before the run (MB)" "$(col warm 0 3)" -ge 30
is "warm, swappiness 0: nothing of the program went to swap" "$(col warm 0 7)" -eq 0
is "warm, swappiness 200: more swap than at 0 ($(col warm 200 7) MB)" "$(col warm 200 7)" -gt "$(col warm 0 7)"
is "vm.swappiness is as it was ($swappiness)" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"
left=$(ls -d /var/tmp/swap-cva.* "${TMPDIR:-/tmp}"/swap-cva.* 2>/dev/null; find /sys/fs/cgroup -type d -name 'swap-box.*' 2>/dev/null)
is "no file, temporary folder or box left${left:+: $left}" "${#left}" -eq 0

# Interrupted in the middle: still nothing left, swappiness back.
sh "$cva" 0 60 100 200 >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
sleep 0.3
left=$(ls -d /var/tmp/swap-cva.* "${TMPDIR:-/tmp}"/swap-cva.* 2>/dev/null; find /sys/fs/cgroup -type d -name 'swap-box.*' 2>/dev/null; pgrep -f "^$swap 48M\$")
if [ -z "$left" ] && [ "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness" ]; then
    pass "interrupted: nothing left, vm.swappiness $swappiness"
else
    fail "interrupted: nothing left, vm.swappiness $swappiness" "left: $left" "swappiness $(cat /proc/sys/vm/swappiness)"
fi
done_testing
