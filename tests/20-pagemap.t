#!/bin/sh
# swap -m: a strip after each line, read from /proc/self/pagemap, showing
# which pages are in RAM (#), in swap (.), mixed (:) or not touched ( ).
# Plainly every page is in RAM after writing; in a box of a quarter of
# the mapping (64 MB in 16 MB: the lesson's proportions, a quarter of its
# time) the last quarter is in RAM after writing and the rest in swap, and
# a reverse read keeps the tail while it reads it; -m changes no count beyond noise;
# a strip per -i line; an unreadable pagemap is one line and the run goes
# on.  swap -v: the stall time (PSI) after each step, and whose.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 15

strips() { grep -c '^          \[[# .:]*\]$' "$1"; }
# strip N [FILE]: the marks of the N-th strip.
strip() { grep '^          \[[# .:]*\]$' "${2:-$out}" | sed -n "$1p" | sed 's/^ *\[//; s/\]$//'; }
count() { printf '%s' "$1" | tr -cd "$2" | wc -c; }
report_lines() { grep -E '^(start|after|writing|reading)' "$1"; }

run "$swap" -m 16M
is "plain -m: exit status 0" "$rc" -eq 0
if [ "$(strips "$out")" -eq 3 ] && [ "$(report_lines "$out" | wc -l)" -eq 3 ] &&
    head -n 1 "$out" | grep -q '^map: 64 marks of 256 KB each: # in RAM, \. in swap, : mixed, blank not yet touched$'; then
    pass "plain -m: the key first, then a strip after each of the three lines"
else
    fail "plain -m: the key first, then a strip after each of the three lines" "$(cat "$out")"
fi
s1=$(strip 1) s2=$(strip 2)
is "plain -m: 64 marks a strip" "${#s2}" -eq 64
is "plain -m, at the start: no page touched (64 blanks)" "$(count "$s1" ' ')" -eq 64
is "plain -m, after writing: every mark in RAM (64 #)" "$(count "$s2" '#')" -eq 64
# The three lines of the lesson are the same lines, in the same layout.
L='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
if report_lines "$out" | sed -n 1p | grep -qE "^start:                   $L" &&
    report_lines "$out" | sed -n 3p | grep -qE "^after reading it back:   $L"; then
    pass "plain -m: the lesson's lines unchanged between the strips"
else
    fail "plain -m: the lesson's lines unchanged between the strips" "$(cat "$out")"
fi
run "$swap" -m -i 4M 16M
is "-m -i 4M: a strip after every line (3 + 2 x 3 progress lines)" "$(strips "$out")" -eq "$(report_lines "$out" | wc -l)"

# Where pagemap cannot be read: a build that reads it from a path that is
# not there, as on a kernel or sandbox that hides it.
if ${CC:-cc} -std=c11 -O2 -DPAGEMAP_PATH='"/nonexistent/pagemap"' -o "$tmp/swap-nomap" "$top/swap.c" 2>"$err"; then
    run "$tmp/swap-nomap" -m 16M
    if [ "$rc" -eq 0 ] && [ "$(strips "$out")" -eq 0 ] && [ "$(report_lines "$out" | wc -l)" -eq 3 ] &&
        [ "$(grep -c '^map: cannot read /nonexistent/pagemap (No such file or directory): no page map in this run$' "$out")" -eq 1 ]; then
        pass "pagemap unreadable: one line says so, the run goes on without strips ($(head -n 1 "$out"))"
    else
        fail "pagemap unreadable: one line says so, the run goes on without strips" "$(cat "$out" "$err")"
    fi
else
    fail "build with an unreadable pagemap" "$(cat "$err")"
fi

# PSI: whose stall time, named in -v, and a line after each step.
run "$swap" -v 16M
whose=$(sed -n 's/^PSI:             *\(this cgroup\|the whole machine\|not available\).*/\1/p' "$out")
if [ "$whose" = "not available" ]; then
    skip "-v: a stall line after each step, naming whose" "no PSI in this kernel: $(grep '^PSI:' "$out")"
elif [ "$(grep -cE '^stalled on memory:       some +[0-9]+\.[0-9]{2} s   full +[0-9]+\.[0-9]{2} s   \((this cgroup|whole machine)\)$' "$out")" -eq 2 ] &&
    [ -n "$whose" ]; then
    pass "-v: PSI from $whose, a stall line after the write and the read step"
else
    fail "-v: PSI named, a stall line after each step" "$(cat "$out")"
fi

if ! { how=$(sh "$box" how) && want_swap; }; then
    why=${swap_why:-no way to make a memory box: ${how#none: }}
    for t in "box: after writing" "box: last quarter" "box: reverse" "box: same faults" "box: random" "box: stall"; do
        box_skip "$t" "$why"
    done
    done_testing
fi
diag "box: $how"

# In the 16 MB box: what is resident is at most a quarter of the 64 MB,
# 16 of the 64 marks; as many marks as the run's own RSS line says (each is
# 1 MB), within two and the marks a process's own RSS may lag by (4 at
# 64 KiB pages): in RAM (#), or partly (:) at the window's edge.
size_mb=64 boxed=16M
# marks MB: MB of the mapping, in marks.  resident_marks N: RSS of the
# N-th line of the lesson, in marks.
marks() { echo $(( $1 * 64 / size_mb )); }
resident_marks() { marks "$(field "$1" rss)"; }
lag=$(marks "$(rss_lag_mb)")
run sh "$box" run "$boxed" "$swap" -m -v "${size_mb}M"
cp "$out" "$tmp/forward"
diag "$(grep -A1 '^after' "$out")"
w=$(strip 2) want=$(resident_marks 2)
ram=$(( $(count "$w" '#') + $(count "$w" ':') ))
is "box, after writing: $want marks in RAM for its $(field 2 rss) MB resident, within two ($ram: [$w])" \
    "$(( ram > want ? ram - want : want - ram ))" -le $((2 + lag))
# (The first half all in swap, the last marks all in RAM or partly; between
# them, on 64 KiB pages, a stray mark of swap cache may sit either way.)
if printf '%s' "$w" | grep -qE "^[.]{32}[.:#]*[#:]{$((want - 2 - lag))}\$" && [ "$want" -le 16 ]; then
    pass "box, after writing: the last share in RAM, the rest in swap"
else
    fail "box, after writing: the last share in RAM, the rest in swap" "[$w]"
fi
# A reverse read takes the resident tail first, for free: after its first
# quarter the tail is still in RAM.  Where the resident share ends up after
# the whole read varies with the kernel and the run (the first pages, the
# tail, part of each, with gaps under MGLRU: measured on 6.1, 6.12 and
# 6.18): there, only its size is checked, against the RSS line.
run sh "$box" run "$boxed" "$swap" -m -o reverse -i $((size_mb / 4))M "${size_mb}M"
q=$(awk -v q="^reading: $((size_mb / 4)) MB " 'f { sub(/^ *\[/, ""); sub(/\]$/, ""); print; exit } $0 ~ q { f = 1 }' "$out")
r=$(strip 9) want=$(resident_marks 3)
q_marks=$(marks "$(sed -n "s/^reading: $((size_mb / 4)) MB  *RSS *\([0-9]*\) MB.*/\1/p" "$out")")
tail_ram=$(( $(count "$(printf '%s' "$q" | cut -c 48-64)" '#') + $(count "$(printf '%s' "$q" | cut -c 48-64)" ':') ))
ends=$(( $(count "$r" '#') + $(count "$r" ':') ))
# (Within three marks, and the one a process's own RSS may lag at 64 KiB.)
slack=$((3 + lag))
if [ "$tail_ram" -ge $((q_marks - slack)) ] && [ "$(( ends > want ? ends - want : want - ends ))" -le "$slack" ]; then
    pass "box, reverse: the tail still in RAM after its first quarter ([$q]); at the end $ends resident marks for $(field 3 rss) MB ([$r])"
else
    fail "box, reverse: the tail in RAM after its first quarter, and at the end as many marks as RSS says" "[$q] ($tail_ram of the last 17, RSS $q_marks marks)" "[$r] ($ends marks, want $want)"
fi
# -m reads the page tables only: the read step's major faults are those
# of a run without it, within run-to-run noise: 10% and 10 faults (64 MB in
# 16 MB: 2,060 without and 2,067 with here; on 64 KiB pages 132-160 in twelve runs, six with
# -m and six without, in the ppc64el guest).  A map that touched the pages
# it reports would fault most of them back in.
run sh "$box" run "$boxed" "$swap" "${size_mb}M"
plain_reads=$(($(field 3 major) - $(field 2 major)))
m_reads=$(($(grep -E '^(after|start)' "$tmp/forward" | sed -n 3p | sed 's/.*major faults *\([0-9]*\).*/\1/') - $(grep -E '^(after|start)' "$tmp/forward" | sed -n 2p | sed 's/.*major faults *\([0-9]*\).*/\1/')))
d=$((m_reads > plain_reads ? m_reads - plain_reads : plain_reads - m_reads))
is "box: the read step's major faults with -m ($m_reads) and without ($plain_reads) differ by at most 10% + 10" "$d" -le $((plain_reads / 10 + 10))
# After a random read the share still resident is spread over the whole
# mapping, so marks are mixed everywhere, where a share in one piece leaves
# one or two.  At least 24 of 64: at 4 KiB pages a mark is 256 pages and all
# 64 are mixed (here), at 16 KiB 48 or more (arm64 guest, 6.12), but at
# 64 KiB a mark is 16 pages and one with 2 or fewer still resident reads as
# swap: 36-48 of 64 in six runs in the ppc64el guest (6.1).
run sh "$box" run "$boxed" "$swap" -m -o random "${size_mb}M"
x=$(strip 3)
is "box, after a random read: the resident pages are spread (mixed marks: $(count "$x" ':') of 64, [$x])" "$(count "$x" ':')" -ge 24
# The stall time of the boxed read step: named, and above zero where the
# kernel counts it for this box or this machine.
stall=$(grep '^stalled on memory:' "$tmp/forward" | sed -n 2p)
if [ "$whose" = "not available" ]; then
    skip "box: the read step stalled on memory" "no PSI in this kernel"
elif printf '%s' "$stall" | awk '{ exit !($5 > 0) }'; then
    pass "box: the read step stalled on memory ($stall)"
else
    fail "box: the read step stalled on memory" "$stall"
fi
done_testing
