#!/bin/sh
# Last: nothing the tests made is left on the machine.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 4

on=$(awk 'NR > 1 && $1 ~ /swap-(test|demo)\./ { print $1 }' /proc/swaps)
is "no test swapfile is on${on:+: $on}" "$(printf '%s' "$on" | grep -c .)" -eq 0
files=$(ls /var/tmp/swap-test.*.swapfile /var/tmp/swap-demo.*.swapfile 2>/dev/null)
is "no test swapfile is on disk${files:+: $files}" "$(printf '%s' "$files" | grep -c .)" -eq 0
dirs=$(find /sys/fs/cgroup -type d -name 'swap-box.*' 2>/dev/null)
is "no box cgroup is left${dirs:+: $dirs}" "$(printf '%s' "$dirs" | grep -c .)" -eq 0
procs=$(pgrep -f "^$top/swap( |\$)" 2>/dev/null)
is "no ./swap process is left${procs:+: $procs}" "$(printf '%s' "$procs" | grep -c .)" -eq 0
done_testing
