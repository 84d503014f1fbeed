#!/bin/sh
# swap -m: a strip after each line, read from /proc/self/pagemap, showing
# which pages are in RAM (#), in swap (.), mixed (:) or not touched ( ).
# Plainly every page is in RAM after writing; a strip per -i line; an
# unreadable pagemap is one line and the run goes on.  swap -v: the stall
# time (PSI) after each step, and whose.  The maps of boxed runs, in each
# read order, are checked with those runs in tests/11-order.t.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 16

report_lines() { grep -E '^(start|after|writing|reading)' "$1"; }

run "$swap" -m 16M
is "plain -m: exit status 0" "$rc" -eq 0
ok "plain -m: the key first" line_is 1 '^map: 64 marks of 256 KB each: # in RAM, \. in swap, : mixed, blank not yet touched$'
is "plain -m: three lines of the report" "$(report_lines "$out" | wc -l)" -eq 3
is "plain -m: a strip after each" "$(strips "$out")" -eq 3
s1=$(strip 1) s2=$(strip 2)
is "plain -m: 64 marks a strip" "${#s2}" -eq 64
is "plain -m, at the start: no page touched (64 blanks)" "$(count "$s1" ' ')" -eq 64
is "plain -m, after writing: every mark in RAM (64 #)" "$(count "$s2" '#')" -eq 64
# The three lines of the lesson are the same lines, in the same layout.
L='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
report_lines "$out" >"$tmp/lines"
ok "plain -m: the lesson's first line unchanged between the strips" line_is 1 "^start:                   $L" "$tmp/lines"
ok "plain -m: and its last" line_is 3 "^after reading it back:   $L" "$tmp/lines"
run "$swap" -m -i 4M 16M
is "-m -i 4M: a strip after every line (3 + 2 x 3 progress lines)" "$(strips "$out")" -eq "$(report_lines "$out" | wc -l)"

# Where pagemap cannot be read: a build that reads it from a path that is
# not there, as on a kernel or sandbox that hides it.
if ${CC:-cc} -std=c11 -O2 -DPAGEMAP_PATH='"/nonexistent/pagemap"' -o "$tmp/swap-nomap" "$top/swap.c" 2>"$err"; then
    run "$tmp/swap-nomap" -m 16M
    ok "pagemap unreadable: exit status 0, nothing on stderr" clean
    is "pagemap unreadable: one line says so" \
        "$(grep -c '^map: cannot read /nonexistent/pagemap (No such file or directory): no page map in this run$' "$out")" -eq 1
    is "pagemap unreadable: no strips" "$(strips "$out")" -eq 0
    is "pagemap unreadable: the three lines of the report" "$(report_lines "$out" | wc -l)" -eq 3
else
    fail "build with an unreadable pagemap" "$(cat "$err")"
    for c in "one line says so" "no strips" "the three lines of the report"; do fail "pagemap unreadable: $c" "not built"; done
fi

# PSI: whose stall time, named in -v, and a line after each step.
run "$swap" -v 16M
whose=$(sed -n 's/^PSI:             *\(this cgroup\|the whole machine\|not available\).*/\1/p' "$out")
if [ "$whose" = "not available" ]; then
    skip "-v: PSI names whose stall time" "no PSI in this kernel: $(grep '^PSI:' "$out")"
    skip "-v: a stall line after each step" "no PSI in this kernel"
else
    ok "-v: PSI names whose stall time ('$whose')" [ -n "$whose" ]
    is "-v: PSI from '$whose', a stall line after the write and the read step" \
        "$(grep -cE '^stalled on memory:       some +[0-9]+\.[0-9]{2} s   full +[0-9]+\.[0-9]{2} s   \((this cgroup|whole machine)\)$' "$out")" -eq 2
fi

done_testing
