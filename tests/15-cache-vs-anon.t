#!/bin/sh
# scripts/cache-vs-anon, kept short (swappiness 0 and 200, few re-reads,
# a quarter of its sizes with 4 KiB pages): the kernel, cgroup and LRU
# first, a row per value for the warm cache and for the re-read case,
# under each LRU where the kernel has MGLRU, and afterwards no box, no
# file, vm.swappiness and lru_gen/enabled as they were, also after an
# interrupt.  The re-reader that ends before its row does, its PID reaped
# and handed to an unprivileged user's process, is not signalled.  Not
# root: one line and a non-zero exit.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
cva=$top/scripts/cache-vs-anon

if ! is_root; then
    run sh "$cva"
    plan 2
    is "not root: exit status 1" "$rc" -eq 1
    ok "not root: one line says so ($(cat "$err"))" refused_saying 1 root
    done_testing
fi
need_box
need_swap
plan 21

if ! command -v setpriv >/dev/null 2>&1; then
    skip "as nobody: one line says it needs root" "setpriv is not installed"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$cva"; then
    skip "as nobody: one line says it needs root" "nobody cannot read $cva (a checkout in a folder only root may enter)"
else
    run setpriv --reuid=65534 --regid=65534 --clear-groups sh "$cva"
    ok "as nobody: one line says it needs root, exit 1" refused_saying 1 root
fi

# The LRUs the table must show: where the kernel has MGLRU, both.
lg=/sys/kernel/mm/lru_gen/enabled
lru_before=$(cat "$lg" 2>/dev/null)
if [ -z "$lru_before" ]; then lru_in_use=classic want_lrus=classic lru_why="no MGLRU in this kernel ($(uname -r))"
elif [ $((lru_before & 1)) -eq 1 ]; then lru_in_use=MGLRU want_lrus="MGLRU classic" lru_why=''
else lru_in_use=classic want_lrus="classic MGLRU" lru_why=''; fi

# Every run at a quarter of the script's sizes (a 10 MB file, 12 MB in a
# 16 MB box, as the lesson's 64 MB in 16 MB) where pages are 4 KiB: the
# rows answer as at full size (swappiness 0 keeps the program whole, 200
# swaps part of it), and on an emulated machine the full rows took
# minutes.  With larger pages, the script's own sizes: with 64 KiB pages
# (the ppc64el guest) the re-read row at swappiness 0 in 16 MB ended with
# ./swap terminated ("Terminated", "the run in the box failed"), twice.
# (Named either way, so that what the checks below look for is what the
# runs were given, not a copy of the script's defaults.)
if [ "$(getconf PAGESIZE)" -le 4096 ]; then
    CVA_BOX=16M CVA_FILE_MB=10 CVA_SIZE=12M
else
    CVA_BOX=64M CVA_FILE_MB=40 CVA_SIZE=48M
fi
export CVA_BOX CVA_FILE_MB CVA_SIZE
# (cva_run: how the script's ./swap runs, paused or not, its records on stdout.)
file_mb=$CVA_FILE_MB cva_run="--format=csv (--pause )?$CVA_SIZE"
swappiness=$(cat /proc/sys/vm/swappiness)
# (CSV=FILE: the table there too, in a folder the one who asked may write.)
asker_out || fail "a folder for CSV=FILE, as UID $run_uid" "cannot make one in her lab folder"
cva_csv=${asker_tmp:-$tmp}/cva.csv
run env CVA_REREAD_MAX=20 CSV="$cva_csv" sh "$cva" 0 200
show_run
is "exit status 0" "$rc" -eq 0
ok "first: the kernel, the cgroup version and the LRU" \
    line_is 1 "^kernel $(uname -r | sed 's/[].[*^$+?(){}|\\]/\\&/g'), cgroup v[12] \(box: .*\), multi-generational LRU: "
# A row is a completed run (read faults and time), or one the kernel's
# OOM killer ended ("killed -"; at swappiness 0 with the cache kept hot,
# neither gives way): both are results, and the row says which.
rowre='^(classic|MGLRU) +(warm|re-read) +(0|200) +[0-9]+ MB +[0-9]+ MB +[0-9]+ MB +([0-9]+ +[0-9]+\.[0-9]{2} s|killed +-) +[0-9]+ MB +[0-9]+ +([0-9]+|-)$'
got_lrus=$(grep -E "$rowre" "$out" | awk '!seen[$1]++ { printf "%s%s", sep, $1; sep = " " }')
is "four rows, warm and re-read for 0 and 200, under each LRU ($want_lrus)" \
    "$(grep -cE "$rowre" "$out")" -eq $((4 * $(echo "$want_lrus" | wc -w)))
ok "the rows name their LRU, the one in use first: $got_lrus" [ "$got_lrus" = "$want_lrus" ]
killed=$(grep -E "$rowre" "$out" | grep -c ' killed ')
if [ "$killed" -eq 0 ]; then
    ok "every row completed (none killed), and no note of a kill" not has "$out" '^killed: '
else
    ok "$killed row(s) killed by the kernel, shown as such and explained in a note: $(grep -E "$rowre" "$out" | grep ' killed ' | tr -s ' ' | tr '\n' '|')" \
        has "$out" "^killed: the kernel's OOM killer ended swap in that box \(exit 137\)"
fi
# CSV=FILE, read by Python's csv module: a row per row of the table, in
# its order, with the table's numbers (the read time to its two decimals).
# shellcheck disable=SC2317 # called by ok
csv_as_table() {
    grep -E "$rowre" "$out" | awk '{ for (i = 1; i <= NF; i++) if ($i != "MB" && $i != "s") printf "%s ", $i; print "" }' >"$tmp/table" &&
    python3 - "$cva_csv" "$tmp/table" <<'PY'
import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = list(csv.DictReader(f))
table = [l.split() for l in open(sys.argv[2])]
got = [[r['lru'], r['case'], r['swappiness'], r['cache_before_mb'], r['rss_after_writing_mb'], r['swap_after_writing_mb']] +
       (['killed', '-'] if r['outcome'] == 'killed' else [r['read_major_faults'], '%.2f' % float(r['read_seconds'])]) +
       [r['cache_after_mb'], r['file_refaults'], r['rereads'] or '-'] for r in rows]
if got != table:
    print('CSV: %s\ntable: %s' % (got, table), file=sys.stderr)
    sys.exit(1)
PY
}
py_ok "CSV=FILE: a row per row of the table, its numbers, read by Python's csv module" csv_as_table
col() { awk -v l="$1" -v c="$2" -v s="$3" -v f="$4" '$1 == l && $2 == c && $3 == s { print $f }' "$out"; }
is "warm: the $file_mb MB file was in the box's cache before the run (MB)" "$(col "$lru_in_use" warm 0 4)" -ge $((file_mb * 3 / 4))
is "warm, swappiness 0: nothing of the program went to swap" "$(col "$lru_in_use" warm 0 8)" -eq 0
# The classic LRU's answer: at 200 anonymous pages are as cheap to reclaim
# as file pages, and it swaps part of the program.
is "classic, warm, swappiness 200: more swap than at 0 ($(col classic warm 200 8) MB)" \
    "$(col classic warm 200 8)" -gt "$(col classic warm 0 8)"
is "vm.swappiness is as it was ($swappiness)" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"
if [ -n "$lru_why" ]; then
    skip "lru_gen/enabled is as it was" "$lru_why"
    skip "-c: exit status 0" "$lru_why"
    skip "-c: only the LRU in use" "$lru_why"
    skip "-c: nothing switched" "$lru_why"
else
    is "lru_gen/enabled is as it was ($lru_before)" "$(cat "$lg")" = "$lru_before"
    run env CVA_REREAD_MAX=5 sh "$cva" -c 0
    got=$(grep -E '^(classic|MGLRU) +(warm|re-read) ' "$out" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
    is "-c: exit status 0" "$rc" -eq 0
    ok "-c: only the LRU in use ($lru_in_use)" [ "$got" = "$lru_in_use " ]
    ok "-c: nothing switched (lru_gen/enabled $lru_before)" [ "$(cat "$lg")" = "$lru_before" ]
fi
left=$({ ls -d "$work_dir"/swap-cva.* "$state_dir"/swap-cva.* 2>/dev/null; find /sys/fs/cgroup -type d -name 'swap-box.*' -user "$self_uid" 2>/dev/null; } | keep_gone)
ok "no file, temporary folder or box left" [ -z "$left" ]

# Interrupted in the middle, while its first row's run is paused in its
# box (PAUSE=1, its input held here): exit 143, still nothing left,
# swappiness back.  The script's trap runs once that row has ended (the
# shell waits for its foreground command), so the run is let go after the
# SIGTERM.
hold "$tmp/int.err"
PAUSE=1 sh "$cva" 0 60 100 200 <"$held_in" >/dev/null 2>"$tmp/int.err" 6>&- &
pid=$!
int_held=''
wait_for paused "$tmp/int.err" && int_held=$(paused_pid "$tmp/int.err")
own_kill -TERM "$pid"
let_go
reap "$pid"
# The row's box helper (scripts/box run) finishes on its own and removes its
# box: given up to 10 s on a loaded machine, a leak stays and fails.
leftover() { { ls -d "$work_dir"/swap-cva.* "$state_dir"/swap-cva.* 2>/dev/null; find /sys/fs/cgroup -type d -name 'swap-box.*' -user "$self_uid" 2>/dev/null; } | keep_gone; runs_of "$cva_run"; }
wait_max=100 wait_for none leftover
left=$(leftover)
# shellcheck disable=SC2317 # called by ok
held_then_clean() { [ -n "$int_held" ] && [ "$st" = 143 ] && [ -z "$left" ]; }
ok "interrupted (SIGTERM) while a row's run is paused in its box: exit 143 (got ${st:-none}${int_held:+, paused PID $int_held}), nothing left${left:+: $left}" \
    held_then_clean
is "interrupted: vm.swappiness back ($swappiness)" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"

# Interrupted while the other LRU is switched on: put back all the same.
if [ -n "$lru_why" ]; then
    skip "interrupted under the other LRU: seen switched" "$lru_why"
    skip "interrupted under the other LRU: lru_gen/enabled back" "$lru_why"
else
    # Interrupted in the first row under the other LRU: each row's run
    # paused at its start in turn, and lru_gen/enabled read while it is.
    # One swappiness, two re-reads: the rows before it are only the way
    # there.
    hold "$out"
    env PAUSE=1 CVA_REREAD_MAX=2 sh "$cva" 0 <"$held_in" >"$out" 2>&1 6>&- &
    pid=$!
    switched=$lru_before
    under_other_lru "$out" "$lru_before"
    own_kill -TERM "$pid"
    let_go
    reap "$pid"
    ok "interrupted under the other LRU: seen switched ($switched)" [ "$switched" != "$lru_before" ]
    ok "interrupted under the other LRU: lru_gen/enabled back to $lru_before" [ "$(cat "$lg")" = "$lru_before" ]
fi

# The re-reader ends before its row does and is reaped by the shell in the
# box; its PID, free then, goes to an unprivileged user's process (as root,
# through ns_last_pid; setpriv drops to the user), which must not be
# signalled when the row ends.  To get there at any speed, the rows' runs
# pause (PAUSE=1): the warm row's is let go; the re-read row's waits at its
# start while the re-reader is ended (its stop file) and, once it is gone
# from /proc, the process is planted; then it goes on.
reaped_reader() {
    desc="the re-reader's PID, reaped and then another user's, is not signalled"
    [ -w /proc/sys/kernel/ns_last_pid ] || { skip "$desc" "no writable /proc/sys/kernel/ns_last_pid"; return; }
    command -v setpriv >/dev/null 2>&1 || { skip "$desc" "setpriv is not installed"; return; }
    # shellcheck disable=SC2119 # a student, not a victim
    make_student || { skip "$desc" "cannot make a user: $(cat "$tmp/useradd.err")"; return; }
    # (So many re-reads that only the stop file ends the re-reader.)
    hold "$out" "$err"
    env PAUSE=1 CVA_REREAD_MAX=1000000 sh "$cva" -c 60 <"$held_in" >"$out" 2>"$err" 6>&- &
    pid=$!
    # readers: the re-readers running (root's, by their command line), a
    # PID a line; not a cat one of them has forked (heads).
    # shellcheck disable=SC2046 # the PIDs, a word each
    readers() { heads $(pgrep -u 0 -f '^sh -c i=0; while '); }
    # (The row starts its re-reader just before its run: on a loaded
    # machine the run may pause before the re-reader's sh has become itself.)
    # shellcheck disable=SC2317 # called through wait_for
    one_reader() { [ "$(readers | wc -l)" -eq 1 ]; }
    # shellcheck disable=SC2317 # called through wait_for
    gone() { [ ! -e "/proc/$r" ]; }
    # (Stopped half-way, the test ends the script, its run let go.)
    # shellcheck disable=SC2317 # called through at_exit
    end_script() { own_kill -TERM "$pid"; }
    at_exit=end_script
    step=''
    if ! { step="the warm row's run, paused" && wait_for paused "$err" && [ -z "$(readers)" ] &&
        step="the re-read row's run, paused, with its re-reader" && next_run "$err" && wait_for one_reader &&
        step="its re-reader, ended and reaped" && r=$(readers) &&
        w=$(find "$work_dir" -maxdepth 1 -type d -name "swap-cva.$pid.*") && [ -n "$w" ] &&
        : >"$w/stop" && wait_for gone; }; then
        own_kill -TERM "$pid"
        let_go
        reap "$pid"
        at_exit=''
        fail "$desc" "not seen in time: $step" "re-readers: $(readers | tr '\n' ' ')" "$(cat "$out" "$err")"
        return
    fi
    plant_at "$r"
    let_go
    reap "$pid"
    at_exit=''
    if [ -z "$sentinel" ]; then
        skip "$desc" "PID $r was taken by another process each time"
    elif running_child "$sentinel" && [ "$st" = 0 ]; then
        pass "$desc (PID $r, now $student's sleep, lives on; the script exited 0)"
    else
        fail "$desc" "exit ${st:-none}; PID $r, the re-reader's once and then $student's sleep: $(running_child "$sentinel" && echo alive || echo signalled)" "$(cat "$out" "$err")"
    fi
    [ -z "$sentinel" ] || end_child "$sentinel"
}
reaped_reader
done_testing
