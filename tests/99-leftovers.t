#!/bin/sh
# Last: nothing the tests made is left on the machine.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 5

on=$(awk 'NR > 1 && $1 ~ /swap-(test|demo)\./ { print $1 }' /proc/swaps)
is "no test swapfile is on${on:+: $on}" "${#on}" -eq 0
files=$(ls /var/tmp/swap-test.*.swapfile /var/tmp/swap-demo.*.swapfile 2>/dev/null)
is "no test swapfile is on disk${files:+: $files}" "${#files}" -eq 0
dirs=$(find /sys/fs/cgroup -type d -name 'swap-box.*' 2>/dev/null)
is "no box cgroup is left${dirs:+: $dirs}" "${#dirs}" -eq 0
# Any file or folder of ours but this test's own: temporary folders, the
# 1997 script's file, records of changed settings.
temps=$(for f in /var/tmp/swap-* "${TMPDIR:-/tmp}"/swap-*; do
    case $f in *"/swap-test.$tag."*|*'/swap-*') ;; *) echo "$f" ;; esac
done)
is "no temporary file, folder or record of ours is left${temps:+: $temps}" "${#temps}" -eq 0
procs=$(pgrep -f "^$top/swap( |\$)" 2>/dev/null)
is "no ./swap process is left${procs:+: $procs}" "${#procs}" -eq 0
done_testing
