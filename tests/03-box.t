#!/bin/sh
# The lesson itself: in a 64 MB box, 256 MB cannot stay resident.  The kernel
# writes the overflow to the swap device while the program writes, and reading
# it back costs major faults (one per readahead cluster) and time.  The bytes
# come back intact, and the device really received them: pswpout grows by at
# least the pages the program has in swap, so they were not all-zero pages
# that the kernel only marks (swpout_zero, Linux 6.12+).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_box
# The plain run first, for its time: it needs no turn (swap_lock).
run "$swap"
cp "$out" "$tmp/plain"
need_swap
plan 13

zswap=$(cat /sys/module/zswap/parameters/enabled 2>/dev/null)
out_before=$(vmstat_count pswpout) zswp_before=$(vmstat_count zswpout) zero_before=$(vmstat_count swpout_zero)
run sh "$box" run 64M "$swap"
out_after=$(vmstat_count pswpout) zswp_after=$(vmstat_count zswpout) zero_after=$(vmstat_count swpout_zero)
show_run

is "exit status 0 (every page read back intact)" "$rc" -eq 0
ok "nothing on stderr" [ ! -s "$err" ]
# What the box's limit holds to 64 MB is its charge (memory.current), not
# VmRSS: VmRSS counts the program's code and libc too (RssFile, 1.7 MB),
# whose page cache is charged to whichever cgroup first read it, most often
# not the box (7.3.4: VmRSS 64,996 kB = RssAnon 63,280 + RssFile 1,716,
# the box's memory.current 63.9 MB, its memory.stat file 56 kB;
# docs/answers.md, answer 2).  That part is resident before the first
# write: the start line's RSS (rounded down, so one MB more).
base=$(( $(reported 1 rss) + 1 ))
is "after writing: RSS at most 64 MB + what was resident at the start ($base MB)" "$(reported 2 rss)" -le $((64 + base))
is "after writing: at least 150 MB in swap" "$(reported 2 swap)" -ge 150
is "after reading: RSS at most 64 MB + what was resident at the start ($base MB)" "$(reported 3 rss)" -le $((64 + base))
m2=$(reported 2 major) m3=$(reported 3 major)
# Every page comes back, at most 2^page-cluster per fault: at least half
# of that many faults (8,192 of 4 KiB pages, 2,048 of 16 KiB ones).
npages=$((268435456 / $(getconf PAGESIZE))) cluster=$(cat /proc/sys/vm/page-cluster)
is "the read step adds at least $((npages / (2 << cluster))) major faults (half of $npages pages / 2^$cluster)" \
    "$((${m3:-0} - ${m2:-0}))" -ge $((npages / (2 << cluster)))

plain=$(reported 3 seconds "$tmp/plain") boxed=$(reported 3 seconds)
lim=$(runner_limit_mb)
if [ -n "$lim" ] && [ "$lim" -lt 288 ]; then
    skip "reading back in the box is slower than plainly" "this runner is itself limited to $lim MB: its plain run swaps too"
else
    ok "reading back in the box ($boxed s) is slower than plainly ($plain s)" seconds_gt "$boxed" "$plain"
fi

pages=$(($(reported 2 swap) * 1048576 / $(getconf PAGESIZE)))
written=$((out_after - out_before))
diag "pswpout +$written, swpout_zero +$((${zero_after:-0} - ${zero_before:-0})), zswpout +$((${zswp_after:-0} - ${zswp_before:-0})), pages in swap after writing: $pages"
zero=$((${zero_after:-0} - ${zero_before:-0}))
if [ "$zswap" = Y ]; then
    # zswap keeps compressed pages in RAM and writes to the device only what
    # it evicts: count both.
    is "zswap is on: pswpout + zswpout grew by at least the $pages pages in swap" \
        "$((written + ${zswp_after:-0} - ${zswp_before:-0}))" -ge "$pages"
else
    is "pswpout grew by at least the $pages pages in swap (really written to the device)" \
        "$written" -ge "$pages"
fi
is "all-zero pages (swpout_zero) are not what went to swap" "$zero" -lt "$((pages / 10 + 1))"
# A run whose output is a regular file writes into a pipe, and box copies
# it to the file from outside the box (out_of_box, scripts/box): written
# from inside, the file's dirty pages were the box's, and on cgroup v1 its
# reclaim slept a tenth of a second at a time for them.  Every byte
# arrives, and the status is the run's.  Any other output (a terminal,
# /dev/null) is the run's own, as given: swap -i draws in place on a
# terminal.
# shellcheck disable=SC2016 # expanded by that sh
run sh "$box" run 16M sh -c 'readlink /proc/self/fd/1; head -c 100000 /dev/zero | tr "\\0" x; echo; exit 3'
# shellcheck disable=SC2317 # called by ok
piped() { [ "$rc" -eq 3 ] && head -n 1 "$out" | grep -q '^pipe:' && [ "$(sed -n 2p "$out" | tr -d '\n' | wc -c)" -eq 100000 ]; }
ok "a run whose output is a file writes into a pipe, all of it reaching the file, exit 3 ($(head -n 1 "$out"), $rc)" piped
# shellcheck disable=SC2016 # expanded by that sh
sh "$box" run 16M sh -c 'exec 3>&1; readlink /proc/self/fd/3 >&2' >/dev/null 2>"$err"
ok "a run whose output is not a file keeps it ($(cat "$err"))" [ "$(cat "$err")" = /dev/null ]

# No cgroup can be made here (the cgroup file systems read-only, as in a
# container without write access to its cgroups): box run refuses in one
# line, naming the read-only file system and the ways out, exit 125, and
# runs nothing; box how gives the same reason.  box run learns it from its
# box's own mkdir (or, on cgroup v2, the read-only look before it), box how
# from a probe.  (The mounts read-only in a mount namespace of the run's
# own.)
# shellcheck disable=SC2016,SC2317 # expanded by that sh; called by run
ro_cgroups() {
    unshare --mount --propagation private sh -c 'for m in $(findmnt -rn -t cgroup,cgroup2 -o TARGET); do
        mount -o remount,bind,ro "$m" || exit 9; done; exec "$@"' sh "$@"
}
# ro_refused RC FILE PREFIX: the last run's exit status RC, and FILE one
# line, PREFIX and a reason that names the read-only file system and the
# ways out.
# shellcheck disable=SC2317 # called by ok
ro_refused() {
    [ "$rc" -eq "$1" ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "^$3" "$2" &&
        grep -qi "read-only" "$2" && grep -q "Ways out: " "$2"
}
# shellcheck disable=SC2317 # called by ok
run_refused() { ro_refused 125 "$err" "box: cannot make a box: " && [ ! -s "$out" ]; }
# shellcheck disable=SC2317 # called by ok
same_reason() { ro_refused 1 "$out" "none: " && [ "$(sed 's/^none: //' "$out")" = "$(sed 's/^box: cannot make a box: //' "$tmp/ro.err")" ]; }
if ! case $(sh "$box" how) in cgroup1*|cgroup2*) true ;; *) false ;; esac; then
    skip "box run, no cgroup can be made: one line, exit 125" "these boxes are systemd's scopes, not cgroups of box's own"
    skip "box how, no cgroup can be made: the same reason" "these boxes are systemd's scopes"
elif ! is_root || ! command -v unshare >/dev/null 2>&1 || ! command -v findmnt >/dev/null 2>&1; then
    skip "box run, no cgroup can be made: one line, exit 125" "not root, or no unshare or findmnt, for a mount namespace"
    skip "box how, no cgroup can be made: the same reason" "not root, or no unshare or findmnt"
else
    run ro_cgroups sh "$box" run 16M "$swap" 8M
    ok "box run, no cgroup can be made: one line, exit 125, nothing run ($(cat "$err"))" run_refused
    cp "$err" "$tmp/ro.err"
    run ro_cgroups sh "$box" how
    ok "box how, no cgroup can be made: the same reason" same_reason
fi
done_testing
