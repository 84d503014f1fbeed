#!/bin/sh
# Run plainly, with room to spare, nothing goes to swap: the pages written
# are resident, reading them back costs no major fault.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_room 256
plan 7

run "$swap"
is "exit status 0" "$rc" -eq 0
is "start: RSS well below 256 MB (nothing touched yet)" "$(reported 1 rss)" -lt 32
is "after writing: RSS at least 256 MB" "$(reported 2 rss)" -ge 256
is "after writing: swap 0 MB" "$(reported 2 swap)" -eq 0
is "after reading: RSS at least 256 MB" "$(reported 3 rss)" -ge 256
is "after reading: major faults stay a handful" "$(reported 3 major)" -le 20
# 65,536 first touches (of 4 KiB pages; 16,384 of 16 KiB), each a page fault and a zeroed page, cannot all
# fit in 5 ms, so the write step's time must show.
w=$(reported 2 seconds)
ok "the write step takes measurable time ($w s)" seconds_gt "$w" 0.00
[ "$failures" -eq 0 ] || show_run >&2
done_testing
