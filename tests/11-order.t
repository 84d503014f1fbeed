#!/bin/sh
# -o ORDER changes the read pass only.  Unit check: every order reads every
# page exactly once (tests/nth_page.c).  Plainly: the labels, the columns,
# no extra memory for random.  64 MB in a 16 MB box (the lesson's
# proportions, a quarter of its time): reverse costs fewer read faults than
# forward (the last 16 MB are still resident), random several times more
# (readahead guesses wrong), and every page comes back intact.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 14

cc=${CC:-cc}
if $cc -std=c11 -O2 -o "$tmp/nth_page" "$top/tests/nth_page.c" 2>"$err"; then
    run "$tmp/nth_page"
    first=$(cat "$out")
    is "nth_page: every order reads every page exactly once" "$rc" -eq 0
    [ "$rc" -eq 0 ] || show_run
    run "$tmp/nth_page"
    if [ "$rc" -eq 0 ] && [ "$(cat "$out")" = "$first" ]; then
        pass "random is the same order on every run ($(sed 's/.*: //' "$out"))"
    else
        fail "random is the same order on every run" "$first" "$(cat "$out")"
    fi
else
    fail "build tests/nth_page.c" "$(cat "$err")"
    fail "random is the same order on every run" "not built"
fi

nums='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
for case in 'reverse:after reading, reverse:  ' 'random:after reading, random:   ' 'forward:after reading it back:   '; do
    order=${case%%:*} label=${case#*:}
    run "$swap" -o "$order" 16M
    if [ "$rc" -eq 0 ] && [ ! -s "$err" ] && [ "$(wc -l <"$out")" -eq 3 ] &&
        sed -n 3p "$out" | grep -qE "^$label$nums"; then
        pass "-o $order: three lines, the read line labelled '$label'"
    else
        fail "-o $order: three lines, the read line labelled '$label'" "$(cat "$out" "$err")"
    fi
done

# The permutation is computed, not stored: random may not use more than 1%
# of SIZE beyond what forward uses.
run "$swap" -o forward
fwd=$(field 3 rss)
run "$swap" -o random
is "plain, random: exit status 0" "$rc" -eq 0
is "plain, random: RSS after reading at most 1% of 256 MB above forward's ($fwd MB)" \
    "$(field 3 rss)" -le $((fwd + 2))

if ! { how=$(sh "$box" how) && want_swap; }; then
    why=${swap_why:-no way to make a memory box: ${how#none: }}
    for t in "forward in a box" "reverse in a box" "random in a box" "reverse costs fewer read faults" \
        "random costs several times more" "forward's read faults below a quarter of the pages" \
        "random's read faults near one per page"; do
        box_skip "$t" "$why"
    done
    done_testing
fi
diag "box: $how"

# boxed ORDER: 64 MB of it in a 16 MB box; sets $reads, the read step's
# major faults.
boxed() {
    run sh "$box" run 16M "$swap" -o "$1" 64M
    is "$1, 64 MB in a 16 MB box: exit status 0 (every page read back intact)" "$rc" -eq 0
    [ "$rc" -eq 0 ] || show_run
    diag "$(tail -n 1 "$out")"
    reads=$(($(field 3 major) - $(field 2 major)))
}
boxed forward; fwd_reads=$reads
boxed reverse; rev_reads=$reads
boxed random; rnd_reads=$reads
diag "read-step major faults: forward $fwd_reads, reverse $rev_reads, random $rnd_reads"

is "reverse costs fewer read faults than forward" "$rev_reads" -lt "$fwd_reads"
# The pages of 64 MB on this machine: 16,384 of 4 KiB, 4,096 of 16 KiB.
pages=$((67108864 / $(getconf PAGESIZE)))
# Readahead is what forward has and random loses; zram and page-cluster=0
# have none to lose.
cluster=$(cat /proc/sys/vm/page-cluster)
if [ "$cluster" -eq 0 ] || grep -q '^/dev/zram' /proc/swaps; then
    skip "random costs several times forward's read faults" "no swap readahead here (zram, or page-cluster $cluster)"
    skip "forward's read faults stay below a quarter of the $pages pages" "no swap readahead here"
else
    is "random costs several (>= 4) times forward's read faults" "$rnd_reads" -ge $((4 * fwd_reads))
    is "forward's read faults stay below a quarter of the $pages pages (readahead works)" "$fwd_reads" -lt $((pages / 4))
fi
is "random's read faults are at least 3/4 of the $pages pages" "$rnd_reads" -ge $((pages * 3 / 4))
done_testing
