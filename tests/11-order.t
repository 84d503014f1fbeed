#!/bin/sh
# -o ORDER changes the read pass only.  Unit check: every order reads every
# page exactly once (tests/nth_page.c).  Plainly: the labels, the columns,
# no extra memory for random.  In a box of a quarter of the size (the
# lesson's proportions): reverse costs fewer read faults than
# forward (the last quarter is still resident), random several times more
# (readahead guesses wrong), and every page comes back intact.  The boxed
# runs show their page maps (swap -m, tests/20-pagemap.t), checked here
# too: after writing the last quarter in RAM and the rest in swap, as many
# marks as the RSS line says; a reverse read keeping the tail while it
# reads it; a random read leaving what is resident spread; -m changing no
# count beyond noise; and the read step's stall time (-v).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 29

# The unit check and the plain runs need no turn (swap_lock): after the
# boxed runs, which take it first, so that the next test's wait is short.
plain_checks() {
    cc=${CC:-cc}
    if $cc -std=c11 -O2 -o "$tmp/nth_page" "$top/tests/nth_page.c" 2>"$err"; then
        run "$tmp/nth_page"
        first=$(cat "$out")
        is "nth_page: every order reads every page exactly once" "$rc" -eq 0
        [ "$rc" -eq 0 ] || show_run >&2
        run "$tmp/nth_page"
        ok "random is the same order on every run ($(sed 's/.*: //' "$out"))" [ "$(cat "$out")" = "$first" ]
    else
        fail "build tests/nth_page.c" "$(cat "$err")"
        fail "random is the same order on every run" "not built"
    fi

    nums='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
    for case in 'reverse:after reading, reverse:  ' 'random:after reading, random:   ' 'forward:after reading it back:   '; do
        order=${case%%:*} label=${case#*:}
        run "$swap" -o "$order" 16M
        ok "-o $order: exit status 0, nothing on stderr" clean
        is "-o $order: three lines" "$(wc -l <"$out")" -eq 3
        ok "-o $order: the read line labelled '$label'" line_is 3 "^$label$nums"
    done

    # The permutation is computed, not stored: random may not keep more
    # resident than forward does, give or take 2 MB.  (Only where 64 MB stay
    # resident: a runner that is itself a smaller box swaps them, and what
    # is resident after reading then depends on the order.)
    lim=$(runner_limit_mb)
    run "$swap" -o forward 64M
    fwd=$(reported 3 rss)
    run "$swap" -o random 64M
    is "plain, random: exit status 0" "$rc" -eq 0
    if [ -n "$lim" ] && [ "$lim" -lt 96 ]; then
        skip "plain, random: RSS after reading at most 2 MB above forward's" "this runner is itself limited to $lim MB: the plain runs swap"
    else
        is "plain, random: RSS after reading at most 2 MB above forward's ($fwd MB)" \
            "$(reported 3 rss)" -le $((fwd + 2))
    fi
}

if ! { how=$(sh "$box" how) && want_swap; }; then
    why=${swap_why:-no way to make a memory box: ${how#none: }}
    for t in "forward in a box" "forward's map after writing" "forward's map: the last share" "forward's map: a quarter" \
        "reverse in a box" "reverse's map: the tail" "reverse's map: at the end" "random in a box" "random's map" "without -m" "same faults" \
        "reverse costs fewer read faults" "random costs several times more" \
        "forward's read faults below a quarter of the pages" "random's read faults near one per page" \
        "the read step stalled"; do
        box_skip "$t" "$why"
    done
    plain_checks
    done_testing
fi
diag "box: $how"

# boxed ORDER [OPTION...]: size_mb of it in a box of a quarter of that
# (small_box), with its page map; sets $reads, the read step's major
# faults.  Each of the map's 64 marks is 128 pages at 4 KiB (32 MB), 64 at
# 16 KiB and 16 at 64 KiB (64 MB), where the marks' allowances below were
# measured: a mark of fewer pages reads a random read's spread as swap more
# often.
small_box
size_mb=$run_mb
boxed() {
    order=$1
    shift
    run sh "$box" run "${box_mb}M" "$swap" -o "$order" "$@" "${size_mb}M"
    is "$order${*:+ $*}, $size_mb MB in a $box_mb MB box: exit status 0 (every page read back intact)" "$rc" -eq 0
    [ "$rc" -eq 0 ] || show_run >&2
    diag "$(tail -n 2 "$out")"
    reads=$(($(reported 3 major) - $(reported 2 major)))
}
# What is resident is at most a quarter of the mapping, 16 of the 64 marks;
# as many marks as the run's own RSS line says, within 2 MB (the line's
# whole MB, and the program's own code and stack in it) and the marks a
# process's own RSS may lag by (4 at 64 KiB pages): in RAM (#), or partly
# (:) at the window's edge.  marks MB: MB of the mapping, in marks (a mark
# is 1 MB of 64 MB, half a MB of 32).  resident_marks N: RSS of the N-th
# line of the lesson, in marks.
marks() { echo $(( $1 * 64 / size_mb )); }
resident_marks() { marks "$(reported "$1" rss)"; }
lag=$(marks "$(rss_lag_mb)")
near=$(( $(marks 2) + lag ))

boxed forward -m -v; m_reads=$reads
cp "$out" "$tmp/forward"
w=$(strip 2) want=$(resident_marks 2)
ram=$(( $(count "$w" '#') + $(count "$w" ':') ))
is "forward's map after writing: $want marks in RAM for its $(reported 2 rss) MB resident, within 2 MB ($ram: [$w])" \
    "$(( ram > want ? ram - want : want - ram ))" -le "$near"
# (The first half all in swap, the last marks all in RAM or partly; between
# them, on 64 KiB pages, a stray mark of swap cache may sit either way.  At
# most a quarter of the marks hold pages in RAM, and the one at the
# window's edge: the RSS line's MB count the program's own code and stack
# too.)
ok "forward's map after writing: the last share in RAM, the rest in swap" like "$w" "^[.]{32}[.:#]*[#:]{$((want - near))}\$"
is "forward's map after writing: at most a quarter in RAM, and the mark at its edge" "$ram" -le 17

# A reverse read takes the resident tail first, for free: after its first
# quarter the tail is still in RAM.  Where the resident share ends up after
# the whole read varies with the kernel and the run (the first pages, the
# tail, part of each, with gaps under MGLRU: measured on 6.1, 6.12 and
# 6.18): there, only its size is checked, against the RSS line.
boxed reverse -m -i $((size_mb / 4))M; rev_reads=$reads
q=$(awk -v q="^reading: $((size_mb / 4)) MB " 'f { sub(/^ *\[/, ""); sub(/\]$/, ""); print; exit } $0 ~ q { f = 1 }' "$out")
r=$(strip 9) want=$(resident_marks 3)
report_line "$out" "reading: $((size_mb / 4)) MB"
q_marks=$(marks "$rl_rss")
tail_ram=$(( $(count "$(printf '%s' "$q" | cut -c 48-64)" '#') + $(count "$(printf '%s' "$q" | cut -c 48-64)" ':') ))
ends=$(( $(count "$r" '#') + $(count "$r" ':') ))
# (Within three marks, and the one a process's own RSS may lag at 64 KiB.)
slack=$((3 + lag))
is "reverse's map: the tail still in RAM after its first quarter, as many of the last 17 marks as RSS says ($q_marks), within $slack ([$q])" \
    "$tail_ram" -ge $((q_marks - slack))
is "reverse's map: at the end $ends resident marks for $(reported 3 rss) MB ($want marks), within $slack ([$r])" \
    "$(( ends > want ? ends - want : want - ends ))" -le "$slack"

# After a random read the share still resident is spread over the whole
# mapping, so marks are mixed everywhere, where a share in one piece leaves
# one or two.  At least 24 of 64: at 4 KiB pages a mark is 128 pages and all
# 64 are mixed (here), at 16 KiB 48 or more (arm64 guest, 6.12), but at
# 64 KiB a mark is 16 pages and one with 2 or fewer still resident reads as
# swap: 36-48 of 64 in six runs in the ppc64el guest (6.1).
boxed random -m; rnd_reads=$reads
x=$(strip 3)
is "random's map: the resident pages are spread (mixed marks: $(count "$x" ':') of 64, [$x])" "$(count "$x" ':')" -ge 24

# -m reads the page tables only: the read step's major faults are those
# of a run without it, within run-to-run noise: 10% and 10 faults (32 MB in
# 8 MB: 1,038 without and 1,047 with here, 6.18; on 64 KiB pages 132-160 in
# twelve runs, six with -m and six without, in the ppc64el guest).  A map
# that touched the pages it reports would fault most of them back in.
boxed forward; fwd_reads=$reads
d=$((m_reads > fwd_reads ? m_reads - fwd_reads : fwd_reads - m_reads))
is "the read step's major faults with -m ($m_reads) and without ($fwd_reads) differ by at most 10% + 10" "$d" -le $((fwd_reads / 10 + 10))
diag "read-step major faults: forward $fwd_reads, reverse $rev_reads, random $rnd_reads"

is "reverse costs fewer read faults than forward" "$rev_reads" -lt "$fwd_reads"
# The pages of the mapping on this machine: 8,192 of 4 KiB (32 MB), 4,096
# of 16 KiB (64 MB).
pages=$((size_mb * 1048576 / $(getconf PAGESIZE)))
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

# The stall time of the boxed read step: named (-v), and above zero where
# the kernel counts it for this box or this machine.
stall=$(grep '^stalled on memory:' "$tmp/forward" | sed -n 2p)
if grep -q '^PSI: *not available' "$tmp/forward"; then
    skip "the read step stalled on memory" "no PSI in this kernel: $(grep '^PSI:' "$tmp/forward")"
else
    ok "the read step stalled on memory ($stall)" seconds_gt "$(printf '%s' "$stall" | awk '{ print $5 }')" 0
fi
swap_done
plain_checks
done_testing
