#!/bin/sh
# Last: nothing the tests made is left on the machine.  Counted are only
# this user's things, and of those only what a run that has ended left
# (its owner tag names a process that is gone): another user's suite, or
# this user's own in another checkout, may be running beside this one.
# No sweep first (no_sweep): it would clean up what this test looks for.
# Not traced (the census, tests/98, is over and its folder gone).
# shellcheck disable=SC2034 # read by tests/lib.sh
no_census=1
no_sweep=1
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
# Its turn (swap_lock): a suite of this user's in another checkout leaves
# what a killed run leaves, on purpose, inside its own turn (tests/17).
swap_lock
plan 9

on=$(awk 'NR > 1 { print $1 }' /proc/swaps | grep -F "$work_dir/swap-" | keep_gone)
ok "no swapfile of an ended run is on" [ -z "$on" ]
files=$(find "$work_dir" -maxdepth 1 -name 'swap-*.swapfile' 2>/dev/null | keep_gone)
ok "no swapfile of an ended run is on disk" [ -z "$files" ]
dirs=$(find /sys/fs/cgroup -type d -name 'swap-box.*' -user "$self_uid" 2>/dev/null | keep_gone)
ok "no box cgroup of an ended run is left" [ -z "$dirs" ]
# Temporary folders, the 1997 script's file, records of changed settings.
temps=$(find "$state_dir" "$work_dir" -mindepth 1 -maxdepth 1 -name 'swap-*' 2>/dev/null | sort -u | keep_gone)
ok "no temporary file, folder or record of an ended run is left" [ -z "$temps" ]
# Besides what runs own (swap-*), only the container base that
# TEST_BUILD_STAGE=1 keeps (docs/tests.md), and the guards' log where
# there is no system log (scripts/undo, guard_log).
other=$(find "$state_dir" "$work_dir" -mindepth 1 -maxdepth 1 ! -name 'swap-*' ! -name 'container-base.*.tar' ! -name guard.log ! -name guard.log.1 2>/dev/null | sort -u)
ok "nothing else in this user's folders but the kept container base and the guards' log" [ -z "$other" ]
procs=$(is_swap "$(pgrep -u "$run_uid" -f "^($top/swap|$gated_re)( |\$)" 2>/dev/null)")
ok "no ./swap process of this checkout is left" [ -z "$procs" ]
# The sweep sees the same: it would undo nothing, and finds nothing odd.
run sh "$box" sweep -n
is "scripts/box sweep -n: exit status 0" "$rc" -eq 0
ok "scripts/box sweep -n finds nothing to undo" [ ! -s "$out" ]
ok "scripts/box sweep -n finds nothing odd" not has "$err" 'left alone'
done_testing
