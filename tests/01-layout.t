#!/bin/sh
# The original demo's layout, to the column: exactly three lines on stdout,
# nothing on stderr, exit 0.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 6

run "$swap"
nums='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
is "exit status 0" "$rc" -eq 0
if [ ! -s "$err" ]; then pass "nothing on stderr"; else fail "nothing on stderr" "$(cat "$err")"; fi
is "exactly three lines on stdout" "$(wc -l <"$out")" -eq 3

i=0
for label in 'start:                   ' 'after writing 256 MB:    ' 'after reading it back:   '; do
    i=$((i + 1))
    if sed -n "${i}p" "$out" | grep -qE "^$label$nums"; then
        pass "line $i: '$label' and the numbers in the original columns"
    else
        fail "line $i: '$label' and the numbers in the original columns" "$(sed -n "${i}p" "$out")"
    fi
done
done_testing
