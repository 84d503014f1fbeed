#!/bin/sh
# Bad input: one line on stderr naming the problem, a non-zero exit (2 for a
# bad argument, 1 for a failing system call), nothing on stdout, no crash.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 73

# expect DESC STATUS ARGS...
expect() {
    desc=$1 want=$2
    shift 2
    run "$swap" "$@"
    is "$desc: exit status $want" "$rc" -eq "$want"
    is "$desc: nothing on stdout" "$(wc -c <"$out")" -eq 0
    ok "$desc: one line on stderr: $(cat "$err")" one_error_line
}
# Bad input says so in one line on stderr, "swap: " first.
# shellcheck disable=SC2317 # called by ok
one_error_line() { [ "$(wc -l <"$err")" -eq 1 ] && has "$err" '^swap: '; }

expect "garbage 'abc'" 2 abc
expect "empty ''" 2 ''
expect "zero '0'" 2 0
expect "negative '-5'" 2 -5
expect "fraction '1.5M'" 2 1.5M
expect "overflow '99999999999999999999'" 2 99999999999999999999
expect "unknown suffix '10T'" 2 10T
expect "too big for the address space '9999999999G'" 2 9999999999G
expect "extra argument '64M 1'" 2 64M 1
expect "unknown option '-x'" 2 -x
expect "bad order '-o sideways'" 2 -o sideways
expect "empty order '-o \'\''" 2 -o ''
expect "missing order '-o'" 2 -o
expect "zero step '-i 0'" 2 -i 0
expect "garbage step '-i fast'" 2 -i fast
expect "step larger than SIZE '-i 512M 256M'" 2 -i 512M 256M
expect "missing step '-i'" 2 -i
expect "--pause with --live" 2 --pause --live
# A failing system call, made to fail for sure: no room in the address
# space (16 MB of it for 48 MB).  48 MB, below the 64 MB of the smallest
# box the suite runs in (a container started with -m 64m): no box warning
# comes first, whatever swap is free.
run sh -c 'ulimit -v 16384 && exec "$0" 48M' "$swap"
is "mmap refused (ulimit -v): exit status 1" "$rc" -eq 1
ok "mmap refused: 'swap: mmap: Cannot allocate memory' on stderr" [ "$(cat "$err")" = "swap: mmap: Cannot allocate memory" ]
ok "mmap refused: nothing on stdout" [ ! -s "$out" ]

# Options clustered, as any Unix program takes them (getopt_long): -vm is
# -v -m, and so is -mv after the size; -5 is still a negative size.
for args in "-vm 8M" "8M -mv"; do
    # shellcheck disable=SC2086 # the options and the size, a word each
    run "$swap" $args
    ok "swap $args: exit 0, nothing on stderr" clean
    ok "swap $args: -v's lines" has "$out" '^page size:'
    ok "swap $args: -m's map" has "$out" '^          \[[# .:]*\]$'
done

for opt in --help -h; do
    run "$swap" "$opt"
    is "$opt: exit status 0" "$rc" -eq 0
    ok "$opt: nothing on stderr" [ ! -s "$err" ]
    ok "$opt: usage on stdout" has "$out" '^Usage: swap \[-v\] '
    ok "$opt: -m explained" has "$out" '^  -m  '
    ok "$opt: -l explained" has "$out" '^  -l  '
done
done_testing
