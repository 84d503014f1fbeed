#!/bin/sh
# make class (lab class N SIZE): a class that cannot fit in the free swap is
# refused before anything starts, so the OOM killer kills nothing; a small
# class completes, one line per run and the summary last; an interrupted
# class leaves no box and no process behind, and signals no process by
# its PID: a run's helper that the shell has reaped may have handed its
# PID to anyone, another user's process too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 21
# (The OOM kill count and the free swap are the machine's: its turn.)
swap_lock

oom() { vmstat_count oom_kill; }

# Free swap and the OOM kill count are the machine's: another user's runs
# (another user's tests take no turn of ours) move them while the class
# reads them.  So free swap and this test's runs are sampled every 10 ms
# from before the class starts until after it ends: the free swap it names
# must lie within what was seen (give or take the largest step between two
# samples), and no run of ours may appear.
# (A class's runs of 256M: swap --format=csv -i 32M 256M, a record each
# eighth, for its watch.)
class_run="--format=csv -i 33554432 256M"
free_mb() { awk 'NR > 1 { f += $3 - $4 } END { printf "%d\n", f / 1024 }' /proc/swaps; }
(while [ ! -e "$tmp/stop" ]; do echo "$(free_mb) $(runs_of "$class_run" | wc -l)"; sleep 0.01; done) >"$tmp/watch" &
watcher=$!
wait_for test -s "$tmp/watch"
before=$(oom)
run env BOX=64M sh "$lab" class 1000 256M
after=$(oom)
sleep 0.05
touch "$tmp/stop"
reap "$watcher"
is "a class of 1000: refused, exit status 1" "$rc" -eq 1
is "a class of 1000: nothing on stdout (no run started)" "$(wc -c <"$out")" -eq 0
said_free=$(sed -n 's/^class: a class of 1000, 256M each in a 64M box, needs about 224000 MB of swap (.*); \([0-9][0-9]*\) MB is free\.$/\1/p' "$err")
seen=$(awk -v said="${said_free:-x}" '
    { if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1
      if (NR > 1 && (d = $1 - last) * (d < 0 ? -1 : 1) > step) step = d * (d < 0 ? -1 : 1); last = $1
      if ($2 > runs) runs = $2 }
    END { ok = said ~ /^[0-9]+$/ && said + 0 >= lo - step && said + 0 <= hi + step
          printf "%s %d %d %d %d %d\n", ok ? "in" : "out", lo, hi, step, runs, NR }' "$tmp/watch")
# shellcheck disable=SC2086 # the figures, a word each
set -- $seen
ok "a class of 1000: the message names both numbers ($said_free MB free; $2-$3 MB seen in $6 samples, largest step $4 MB) and that nothing started" \
    [ "$1:$(grep -c 'nothing started' "$err")" = in:1 ]
# No run of this test's was ever seen, so none was killed; the machine's
# count should not move either, but another user's box may be killed
# meanwhile (tests/07 does so on purpose): named, not counted against it.
if [ "$5" -eq 0 ] && [ "${after:-0}" -eq "${before:-0}" ]; then
    pass "a class of 1000: no run started, and the OOM killer killed nothing (oom_kill $before -> $after)"
elif [ "$5" -eq 0 ]; then
    pass "a class of 1000: no run started, so the OOM killer killed none of it (oom_kill $before -> $after: another user's)"
else
    fail "a class of 1000: no run started, and the OOM killer killed nothing" "$5 runs of this test's seen at once" "oom_kill $before -> $after"
fi

for bad in 0 x -1; do
    run sh "$lab" class "$bad" 256M
    ok "N=$bad: one line on stderr, exit 2 ($(cat "$err"))" refused_saying 2 "not '$bad'"
done

if ! { how=$(sh "$box" how) && want_swap; }; then
    why=${swap_why:-no way to make a memory box: ${how#none: }}
    for t in "class of 2: exit 0" "class of 2: a line per run" "class of 2: the summary" "class of 2: read faults" \
        "class of 2: the spread" "class of 2: CSV a row per run" "class of 2: CSV its numbers" "class of 2: on a pipe" "class of 2: on a pipe, no escape" "class of 2: on a terminal" \
        "interrupted class: exit 143" "interrupted class: nothing left" "interrupted class (TERM): reaped PIDs" \
        "interrupted class (INT): reaped PIDs"; do
        box_skip "$t" "$why"
    done
    done_testing
fi
diag "box: $how"

# The classes are held by their runs' pause (PAUSE=1, input a FIFO of
# ours). A class of 2 on a terminal, beside the one below, held at its
# first line until the screen shows it; its prompts in a file, lest the
# watch's rub-out clear the whole screen.
started='^run   [12]: start: +RSS +[0-9]+ MB  swap +[0-9]+ MB  major faults +[0-9]+$'
hold "$tmp/term.err"
if term_start 200 40 "echo CLASS; env BOX=16M PAUSE=1 sh '$lab' class 2 32M <'$held_in' 2>'$tmp/term.err'; echo CLASS-DONE-\$?; sleep 60"; then
    # Held, the class cannot end before its lines are seen.  What the
    # screen showed when the looker gave up is kept for the failure.
    (wait_max=1200 wait_for paused "$tmp/term.err" 2 && wait_max=1200 wait_for screen_has "$started" && : >"$tmp/seen"
    [ -e "$tmp/seen" ] || cp "$tmp/screen" "$tmp/screen.unseen" 2>/dev/null
    let_go
    wait_max=1200 wait_for screen_has '^CLASS-DONE-') &
    looker=$!
fi
# (The looker lets go: its copy is the FIFO's last writer.)
exec 6>&-
held_in=''
# (Its watch every twentieth of a second, half lib.sh's CLASS_EVERY: a
# line on a pipe every quarter second, five looks, and the class held no
# longer than that.  small_box: the lesson's proportions.)  Its runs let
# go once the class's first progress line is out, or the class has ended
# without one.
small_box
# (CSV=FILE: its table there too, in a folder the one who asked may write.)
asker_out || bail "cannot make a folder for CSV=FILE as UID $run_uid"
class_csv=${asker_tmp:-$tmp}/class.csv
hold "$out" "$err"
env CLASS_EVERY=0.05 BOX="${box_mb}M" CSV="$class_csv" PAUSE=1 sh "$lab" class 2 "${run_mb}M" <"$held_in" >"$out" 2>"$err" 6>&- &
pc=$!
# shellcheck disable=SC2317 # called through wait_for
progress_out() { has "$out" '^class: after ' || not running_child "$pc"; }
wait_for progress_out
let_go
reap "$pc"
rc=${st:-none}
show_run
is "a class of 2: exit status 0 (both completed, pages intact)" "$rc" -eq 0
is "a class of 2: a line per run, the run's last line" "$(grep -c '^run   [12]: after reading it back: ' "$out")" -eq 2
ok "a class of 2: the summary after the runs' lines" \
    like "$(tail -n 2 "$out" | head -n 1)" '^class: 2 of 2 completed, 0 killed, read step median [0-9]+\.[0-9]{2} s \(max [0-9]+\.[0-9]{2} s\), read faults median [0-9]+$'
# The spread, last: fastest <= median <= slowest, of the read steps and of
# their faults, and the whole class's time no shorter than its slowest.
spread=$(tail -n 1 "$out")
# shellcheck disable=SC2317 # called by ok
in_order() {
    echo "$spread" | awk '/^class: read step fastest [0-9.]+ s, median [0-9.]+ s, slowest [0-9.]+ s; read faults fewest [0-9]+, median [0-9]+, most [0-9]+; the class took [0-9.]+ s$/ {
        gsub(/[^0-9. ]/, " "); split($0, v, " +")
        ok = v[1] <= v[2] && v[2] <= v[3] && v[4] <= v[5] && v[5] <= v[6] && v[7] >= v[3] } END { exit !ok }'
}
ok "a class of 2: the spread last, in order ($spread)" in_order
# On a pipe (here a file), how many runs are where, every few seconds.
ok "a class of 2, not on a terminal: progress lines as it runs ($(grep -c '^class: after ' "$out"))" \
    has "$out" '^class: after [0-9.]+ s: [0-9]+ starting, [0-9]+ writing, [0-9]+ reading, [0-9]+ done, of 2$'
ok "a class of 2, not on a terminal: no escape" not has "$out" "$(printf '\033')"
# Each run's line counts what the summary counts: the read step's faults,
# its total less the write step's (taken from that run's own output), and
# the summary's median lies among them.
reads=$(awk '/^run +[0-9]+: after reading it back: / { t = $0; sub(/.*major faults +/, "", t); split(t, a, " ")
        n = $NF; if ($(NF - 2) " " $(NF - 1) != "read faults" || n + 0 <= 0 || n + 0 > a[1] + 0) bad = bad " " $2; print n }
        END { if (bad != "") print "bad" bad }' "$out" | tr '\n' ' ')
med=$(tail -n 2 "$out" | head -n 1 | sed -n 's/.*read faults median \([0-9]*\)$/\1/p')
# shellcheck disable=SC2317 # called by ok
median_among() {
    echo "$reads" | awk -v m="$med" '{ if (NF != 2 || $0 ~ /bad/ || m == "") exit 1
        lo = ($1 < $2 ? $1 : $2); hi = ($1 < $2 ? $2 : $1); exit !(m >= lo && m <= hi) }'
}
ok "a class of 2: each run's line ends with its read faults ($reads), the summary's median ($med) among them" median_among

# Its CSV, read by Python's csv module: a row per run, the columns named,
# and each row's numbers those its line on the terminal shows.
# shellcheck disable=SC2317 # called by ok
csv_as_lines() {
    python3 - "$class_csv" "$out" "$1" <<'PY'
import csv, re, sys
name, out, what = sys.argv[1:]
with open(name, newline='') as f:
    rows = list(csv.DictReader(f))
want = 'run,outcome,exit_status,write_seconds,read_seconds,read_major_faults,read_minor_faults,rss_kb,swap_kb,major_faults,last_line,error'
line = re.compile(r'^run +(\d+): after reading it back: +RSS +(\d+) MB +swap +(\d+) MB +major faults +(\d+) +(\d+\.\d\d) s +read faults (\d+)$')
seen = {}
for l in open(out):
    m = line.match(l.rstrip('\n'))
    if m:
        seen[m.group(1)] = m.groups()[1:]
if what == 'rows':
    got = ','.join(rows[0].keys()) if rows else ''
    ok = got == want and sorted(r['run'] for r in rows) == ['1', '2'] and all(r['outcome'] == 'completed' for r in rows)
    print('%d rows, runs %s, columns %s' % (len(rows), [r['run'] for r in rows], got), file=sys.stderr)
    sys.exit(0 if ok else 1)
bad = 0
for r in rows:
    csv_says = (str(int(r['rss_kb']) // 1024), str(int(r['swap_kb']) // 1024), r['major_faults'],
                '%.2f' % float(r['read_seconds']), r['read_major_faults'])
    if seen.get(r['run']) != csv_says:
        print('run %s: CSV %s, line %s' % (r['run'], csv_says, seen.get(r['run'])), file=sys.stderr)
        bad = 1
sys.exit(bad or len(rows) != 2 or len(seen) != 2)
PY
}
if ! command -v python3 >/dev/null 2>&1; then
    skip "a class of 2, CSV=FILE: a row per run" "python3 is not installed (its csv module reads the file)"
    skip "a class of 2, CSV=FILE: each row's numbers those of its line" "python3 is not installed"
else
    ok "a class of 2, CSV=FILE: a row per run, read by Python's csv module" csv_as_lines rows
    ok "a class of 2, CSV=FILE: each row's RSS, swap, faults, read time and read faults those of its line" csv_as_lines numbers
fi

# On the terminal: a line per run, redrawn in place while they went, then
# rubbed out: what stays is the runs' last lines and the summary.
if [ -z "$sock" ]; then
    skip "a class of 2 on a terminal: its lines while it runs, then only the results" "$term_why"
else
    reap "$looker"
    seen=''
    [ -e "$tmp/seen" ] && seen=yes
    term_stop
    # shellcheck disable=SC2317 # called by ok
    only_results() {
        [ -n "$seen" ] && grep -q '^CLASS-DONE-0$' "$tmp/screen" &&
            ! grep -qE '^run   [12]: (starting|start: |writing: |reading: |after writing)' "$tmp/screen" &&
            [ "$(grep -c '^run   [12]: after reading it back: ' "$tmp/screen")" -eq 2 ] &&
            grep -q '^class: read step fastest ' "$tmp/screen" && return 0
        cat "$tmp/screen" >&2
        [ ! -e "$tmp/screen.unseen" ] || { echo "--- the screen when the looker gave up:"; cat "$tmp/screen.unseen"; } >&2
        return 1
    }
    ok "a class of 2 on a terminal: a line per run while they went (${seen:-not seen}), then only the results" only_results
fi

# Interrupted while its runs are under way (TERM: a background job here
# ignores INT, as POSIX says), held at their first line (PAUSE=1), so the
# class is interrupted with a run going however fast the machine, and let
# go after the TERM (the lab waits for its runs, whose box helpers finish
# them).
hold "$out" "$err"
env BOX=16M PAUSE=1 sh "$lab" class 2 32M <"$held_in" >"$out" 2>"$err" 6>&- &
pid=$!
int_held=''
wait_for paused "$err" && int_held=$(paused_pid "$err")
own_kill -TERM "$pid"
let_go
reap "$pid"
if [ -n "$int_held" ]; then
    is "an interrupted class, its run paused (PID $int_held): exit status 143" "${st:-none}" -eq 143
else
    fail "an interrupted class, its run paused: exit status 143" "no run paused" "$(cat "$out" "$err")"
fi
# The runs' box helpers end their runs and remove their boxes on their own:
# given up to 10 s on a loaded machine, a leak stays and fails.
leftover() { runs_of "--pause --format=csv -i 4194304 32M"; { find /sys/fs/cgroup -type d -name 'swap-box.*' -user "$self_uid" 2>/dev/null; ls -d "$work_dir"/swap-class.* 2>/dev/null; } | keep_gone; }
wait_max=100 wait_for none leftover
left=$(leftover)
ok "an interrupted class: no run, box or temporary folder left" [ -z "$left" ]

# signal_run SIG PID NAME: PID, a run found by its prompt (not our child),
# signalled only if the shell reads it, just before, as a live process of
# this user's (or run_uid's) named NAME, or 9 as root (the gate's).
signal_run() {
    _sr_name='' _sr_uid='' _sr_state=''
    { while read -r _sr_k _sr_a _sr_b _; do
        case $_sr_k in Name:) _sr_name=$_sr_a ;; State:) _sr_state=$_sr_a ;; Uid:) _sr_uid=$_sr_b ;; esac
    done <"/proc/$2/status"; } 2>/dev/null
    { [ "$_sr_name" = "$3" ] || { is_root && [ "$_sr_name" = 9 ]; }; } &&
        { [ "$_sr_uid" = "$self_uid" ] || [ "$_sr_uid" = "$run_uid" ]; } && [ "$_sr_state" != Z ] && kill "$1" "$2" 2>/dev/null
}
# Interrupted mid-run after the lab reaped a box helper behind its back:
# both runs paused at their first line, run 2 is ended (SIGKILL) and run 1
# stays, so while the lab waits for run 1's helper (it waits for them in
# order), the shell reaps run 2's, and its PID is free.
# It goes to an unprivileged user's process (as root, through ns_last_pid,
# the next PID the kernel hands out; setpriv then drops to that user),
# which the class must not signal when it is stopped with SIGTERM, or with
# SIGINT as a terminal's Ctrl-C sends it.
reaped_test() {
    desc="an interrupted class (SIG$1) signals no process it has reaped"
    is_root || { skip "$desc" "not root: the next PID cannot be chosen (ns_last_pid)"; return; }
    [ -w /proc/sys/kernel/ns_last_pid ] || { skip "$desc" "no writable /proc/sys/kernel/ns_last_pid"; return; }
    command -v setpriv >/dev/null 2>&1 || { skip "$desc" "setpriv is not installed"; return; }
    # shellcheck disable=SC2119 # a student, not a victim
    [ -n "${student-}" ] || make_student || { skip "$desc" "cannot make a user: $(cat "$tmp/useradd.err")"; return; }
    # (8 MB each: what is tested is whom the class signals, not what its
    # runs measure.)
    hold "$out" "$err"
    env --default-signal=INT BOX=16M PAUSE=1 sh "$lab" class 2 8M <"$held_in" >"$out" 2>"$err" 6>&- &
    bg=$!
    bg_tag=$(sh "$box" tag "$bg")
    # Its two box helpers, and only they: the lab's own pipelines (the
    # sweep's sed | awk) are children of it too for a moment.  (env runs
    # the lab in its own process: $bg is the lab.)
    # shellcheck disable=SC2317 # called through both
    helpers() { pgrep -P "$bg" -f "^sh [^ ]*/scripts/box run "; }
    # (The helpers' PIDs from the same look that saw both.)
    # shellcheck disable=SC2317 # called through wait_for
    both() { hs=$(helpers) && [ "$(echo "$hs" | wc -l)" -ge 2 ]; }
    # run_2: of the two paused runs, the one in box 2, in $r2.
    # shellcheck disable=SC2317 # called by the step below
    run_2() {
        for r2 in $(paused_pid "$err" 1) $(paused_pid "$err" 2); do
            in_cgroup_named "$r2" "swap-box.$bg_tag.2" "swap-box-${bg_tag%%.*}-${bg_tag#*.}-2.scope" && return 0
        done
        return 1
    }
    # shellcheck disable=SC2317 # called through wait_for
    reaped() { for h in $hs; do [ -e "/proc/$h" ] || { second=$h; return 0; }; done; return 1; }
    second=''
    if ! { step="both runs paused, their helpers seen" && wait_for paused "$err" 2 && wait_for both &&
        step="run 2 found, ended, its helper reaped" && run_2 && signal_run -KILL "$r2" swap && wait_for reaped; }; then
        let_go
        end_child "$bg"
        fail "$desc" "not seen in time: $step" "$(cat "$out" "$err")"
        return
    fi
    plant_at "$second"
    if [ -z "$sentinel" ]; then
        let_go
        end_child "$bg"
        skip "$desc" "PID $second was taken by another process each time"
        return
    fi
    own_kill "-$1" "$bg"
    reap "$bg"
    ok "$desc (exit ${st:-none}; run 2's helper's PID $second, now $student's sleep, lives on)" running_child "$sentinel"
    let_go
    end_child "$sentinel"
    wait_for none leftover
}
reaped_test TERM
reaped_test INT
done_testing
