#!/bin/sh
# A box smaller than SIZE that may not use swap: the program warns on stderr
# that the kernel will kill it, goes on, and the kernel does kill it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_box
# With swap on, what forbids it is the box's own swap limit of 0: the case
# to prove.  Without swap the program must warn all the same.
reason='.*'
if want_swap; then reason='the swap limit is 0'; else diag "$swap_why"; fi
plan 5

run sh "$box" run -n 64M "$swap"
show_run
is "killed by SIGKILL (exit status 137)" "$rc" -eq 137
ok "the warning on stderr names the limit, the size, why no swap, and the kill" has "$err" "^swap: warning: memory limit 64 MB is below 256 MB and $reason, so the kernel will kill this program\$"
is "the warning is one line" "$(grep -c 'warning' "$err")" -eq 1
ok "the program went on after the warning" has "$out" '^start: '
ok "killed before the read step" not has "$out" '^after reading'
done_testing
