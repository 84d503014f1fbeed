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
ok "nothing on stderr" [ ! -s "$err" ]
is "exactly three lines on stdout" "$(wc -l <"$out")" -eq 3
ok "line 1: 'start:' and the numbers in the original columns" line_is 1 "^start:                   $nums"
ok "line 2: 'after writing 256 MB:' and the numbers in the original columns" line_is 2 "^after writing 256 MB:    $nums"
ok "line 3: 'after reading it back:' and the numbers in the original columns" line_is 3 "^after reading it back:   $nums"
done_testing
