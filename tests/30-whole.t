#!/bin/sh
# A box ends whole, the guard is never fooled by its own failure, and no
# `box run -p` box outlives its helper (scripts/lib.sh: kill_box, box_end;
# scripts/undo: sweep_look, guard_watch, the pbox record).
#  - A program whose main thread has called pthread_exit while its other
#    thread runs (tests/leader_exit.c: the leader shows Z), its box
#    helper killed: the sweep ends it whole, through the box's freezer
#    cgroup, and again with the freezer taken away (in rounds), and says
#    so; held still by a frozen freezer cgroup of the test's own, the sweep
#    says it could not, naming what is left, and ends it once let go.
#  - The guard with pids.max 3 (itself and two more: a listing takes more)
#    while its run is killed: it logs in words that it cannot tell what is
#    left, once however often it tries, undoes nothing meanwhile, and
#    undoes all once the PIDs are back, within 30 s.
#  - box run -p (make class's runs) whose helper is killed with SIGKILL
#    while its caller lives: the next sweep ends its box and program, and,
#    as root's runs have it, the helper's own guard does, with no sweep.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
is_root || skip_all "not root: the boxes under test are root's cgroups"
need_box
swap_lock
plan 18
BOX_GUARD=0
export BOX_GUARD
how=${how%% *}

# box_of TAG: this user's cgroups of the box swap-box.TAG (its memory
# cgroup, and on v1 its freezer cgroup beside it).
# shellcheck disable=SC2317 # called by the predicates below
box_of() { find /sys/fs/cgroup -type d -name "swap-box.$1" -user "$self_uid" 2>/dev/null; }
fz_mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)freezer(,|$)/ { print $2; exit }' /proc/mounts)
hold=''
# unhold: the test's own freezer cgroup (it holds a run still) thawed and
# removed, whatever the test did before it ended; what is in it put back
# at the top of the freezer tree first.
unhold() {
    [ -n "$hold" ] && [ -d "$hold" ] || return 0
    echo THAWED >"$hold/freezer.state"
    while read -r t; do echo "$t" >"$fz_mnt/tasks"; done <"$hold/tasks" 2>/dev/null
    rmdir "$hold"
}
# end_mine: every box of this test's still there (the code under test
# broken, or the test stopped half-way) ended by the test itself: all its
# threads moved to a freezer cgroup of the test's and frozen, each process
# killed once, thawed (as scripts/lib.sh's frozen_kill does it), the box
# removed; then a sweep, for the rest (records, a changed swappiness).
# Left running, a run would keep the descriptors it inherited open (a
# flock that serializes test runs, too).
mine=''
# shellcheck disable=SC2317 # called through at_exit
end_mine() {
    [ -n "$fz_mnt" ] || return 0
    e=$fz_mnt/swap-hold.$tag.end
    for t in $mine; do
        for d in $(box_of "$t"); do
            { mkdir -p "$e" && echo FROZEN >"$e/freezer.state"; } || continue
            while read -r k; do echo "$k" >"$e/tasks"; done <"$(tasks_of "$d")" 2>/dev/null
            i=0
            while [ "$(cat "$e/freezer.state")" != FROZEN ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            cat "$e/tasks" "$d/cgroup.procs" 2>/dev/null | while read -r k; do awk '$1 == "Tgid:" { print $2 }' "/proc/$k/status"; done 2>/dev/null |
                sort -u | while read -r k; do kill -KILL "$k"; done
            echo THAWED >"$e/freezer.state"
            i=0
            while [ -n "$(cat "$e/tasks" "$d/tasks" 2>/dev/null)" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            rmdir "$e" "$d" 2>/dev/null
        done
    done
    sh "$box" sweep -q
}
# dead PID: gone, or a zombie.
# shellcheck disable=SC2317 # called by ok
dead() { case $(state_of "$1") in ''|Z) return 0 ;; esac; return 1; }
pc=''
pids_mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)pids(,|$)/ { print $2; exit }' /proc/mounts)
# pids_gone: the pids cgroup given back (what is in it, the guard, put
# back at the top first).
pids_gone() {
    [ -n "$pc" ] && [ -d "$pc" ] || return 0
    echo max >"$pc/pids.max"
    while read -r p; do echo "$p" >"$pids_mnt/cgroup.procs"; done <"$pc/cgroup.procs" 2>/dev/null
    rmdir "$pc"
}
# shellcheck disable=SC2317 # called through at_exit
all_gone() { unhold; pids_gone; end_mine; }
at_exit=all_gone

# ---- 1-8. A leader that has called pthread_exit, in a box.
cc=${CC:-cc}
built=''
$cc -std=c11 -O2 -pthread -o "$tmp/leader_exit" "$top/tests/leader_exit.c" 2>"$tmp/cc.err" &&
    le=$(her_file "$tmp/leader_exit") && built=1
# leader_boxed: leader_exit started in a 16 MB box (box run, no guard),
# and found there once its leader has ended with its thread running: the
# helper in $helper (tag $htag), the box's memory cgroup in $mem, the
# leader's ID and start ($leader, $lstart), its thread's ($thread,
# $tstart).  1, with why on stderr, if it is not seen so.
leader_boxed() {
    sh "$box" run 16M "$le" >"$tmp/leader.out" 2>&1 9<&- &
    helper=$!
    htag=$(sh "$box" tag "$helper")
    mine="$mine $htag"
    mem='' leader='' thread=''
    # shellcheck disable=SC2317 # called through wait_for
    leader_ended() {
        grep -qx ready "$tmp/leader.out" 2>/dev/null || return 1
        for d in $(box_of "$htag"); do [ -f "$d/freezer.state" ] || mem=$d; done
        # (Under sudo, scripts/asker's shell is in the box too: the leader
        # is the zombie, its thread one of its own tasks.)
        [ -n "$mem" ] || return 1
        leader='' thread=''
        while read -r p; do [ "$(state_of "$p")" != Z ] || leader=$p; done <"$mem/cgroup.procs"
        [ -n "$leader" ] || return 1
        for t in "/proc/$leader/task"/*; do [ "${t##*/}" = "$leader" ] || thread=${t##*/}; done
        [ -n "$thread" ] && grep -qx "$thread" "$(tasks_of "$mem")"
    } 2>/dev/null
    if ! wait_for leader_ended; then
        echo "not seen: box ${mem:-none}, leader ${leader:-none} ($(state_of "${leader:-0}")), thread ${thread:-none}; $(cat "$tmp/leader.out")" >&2
        return 1
    fi
    lstart=$(start_of "$leader") tstart=$(start_of "$thread")
}
# shellcheck disable=SC2317 # called by leader_ended
tasks_of() { if [ -f "$1/tasks" ]; then echo "$1/tasks"; else echo "$1/cgroup.threads"; fi; }
start_of() { sed -n 's/.*) //p' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }'; }
# ended: the program and its box are gone: the thread (released the
# moment it ends) and no box of the helper's, and the leader gone or a
# zombie no thread holds (PID 1 reaps it when it will).
# shellcheck disable=SC2317 # called by ok and wait_for
ended() {
    [ "$(start_of "$thread")" != "$tstart" ] && [ -z "$(box_of "$htag")" ] &&
        { [ "$(start_of "$leader")" != "$lstart" ] || [ "$(state_of "$leader")" = Z ]; } && return 0
    echo "thread $thread: $(state_of "$thread"); leader $leader: $(state_of "$leader"); boxes: $(box_of "$htag")" >&2
    return 1
}
# What a run's box holds: the program, and under sudo scripts/asker's shell.
n_in=1
[ "$run_uid" = "$self_uid" ] || n_in=2
# swept_whole: the sweep's one line says the box was removed with what was
# in it, and no line says it could not.
# shellcheck disable=SC2317 # called by ok
swept_whole() {
    [ "$rc" -eq 0 ] && grep -q "cleaned up after runs that were killed: .*box $mem removed, $n_in process(es) in it ended (PID $helper is gone)" "$err" &&
        ! grep -q 'could not' "$err"
}

if [ -z "$built" ]; then
    for t in "leader Z in its box" "sweep: whole" "nothing left" "no freezer: leader Z" "no freezer: whole" \
        "no freezer: nothing left" "held: named" "held: then ended"; do
        skip "$t" "cannot build tests/leader_exit.c: $(head -n 1 "$tmp/cc.err")"
    done
else
    # 1-3. Through the freezer cgroup (v1), or cgroup.kill (v2).
    if leader_boxed; then
        pass "leader_exit's leader (PID $leader) Z, its thread $thread running, in $mem"
        own_kill -KILL "$helper"
        wait "$helper" 2>/dev/null
        run sh "$box" sweep
        ok "its helper killed, the sweep ends it whole and says so ($(head -n 1 "$err" | cut -c1-160))" swept_whole
        ok "nothing of it is left: no thread, no box" ended
    else
        fail "leader_exit's leader Z, its thread running, in its box"
        skip "the sweep ends it whole" "it was never seen in its box"
        skip "nothing of it is left" "it was never seen in its box"
    fi
    # 4-6. With no freezer cgroup beside the box (its tasks put back at the
    # top of the freezer tree, and its freezer cgroup removed): kill_box's
    # rounds, which signal the leader while its thread lives.
    if [ "$how" != cgroup1 ] || [ -z "$fz_mnt" ]; then
        for t in "no freezer: leader Z" "no freezer: whole" "no freezer: nothing left"; do
            skip "$t" "no v1 freezer beside a v1 box here (box: $how)"
        done
    elif leader_boxed; then
        fz=$fz_mnt/swap-box.$htag
        while read -r t; do echo "$t" >"$fz_mnt/tasks"; done <"$fz/tasks"
        rmdir "$fz"
        ok "leader_exit in its box, its freezer cgroup taken away (leader $leader Z, thread $thread)" [ ! -d "$fz" ]
        own_kill -KILL "$helper"
        wait "$helper" 2>/dev/null
        run sh "$box" sweep
        ok "with no freezer, the sweep ends it whole all the same ($(head -n 1 "$err" | cut -c1-160))" swept_whole
        ok "nothing of it is left: no thread, no box" ended
    else
        fail "leader_exit in its box, its freezer cgroup taken away"
        skip "with no freezer, the sweep ends it whole" "it was never seen in its box"
        skip "nothing of it is left" "it was never seen in its box"
    fi
    # 7-8. Held by a frozen freezer cgroup of the test's own, where no
    # SIGKILL ends it: the sweep says it could not remove the box, and what
    # is in it, each task with its state; let go, the next sweep ends it.
    # shellcheck disable=SC2317 # called by ok
    named_left() {
        [ "$rc" -eq 1 ] && ! grep -q 'cleaned up' "$err" &&
            grep -q "could not clean up after runs that were killed: box $mem could not be removed: still in it: .*thread $thread of PID $leader (.*held by the freezer cgroup $hold (FROZEN))" "$err" &&
            grep -q "PID $leader ([^)]*, zombie)" "$err"
    }
    if [ "$how" != cgroup1 ] || [ -z "$fz_mnt" ]; then
        skip "held: the sweep names what is left" "no v1 freezer here (box: $how)"
        skip "held, then let go: ended" "no v1 freezer here (box: $how)"
    elif leader_boxed; then
        hold=$fz_mnt/swap-hold.$tag
        mkdir "$hold" && echo "$thread" >"$hold/tasks" && echo FROZEN >"$hold/freezer.state"
        own_kill -KILL "$helper"
        wait "$helper" 2>/dev/null
        run sh "$box" sweep
        ok "held still by a freezer of the test's, the sweep says what is left and why ($(cut -c1-240 "$err"))" named_left
        unhold
        run sh "$box" sweep
        wait_for ended 2>/dev/null
        ok "let go, the next sweep ends it: nothing left ($(cut -c1-120 "$err"))" ended
    else
        fail "leader_exit in its box, to be held"
        skip "held, then let go: ended" "it was never seen in its box"
    fi
fi

# ---- 9-13. The guard with pids.max 3 while its run is killed.
guard_test() {
    desc="the guard, pids.max 3"
    [ -n "$pids_mnt" ] || { skip "$desc" "no v1 pids controller"; return 1; }
    [ ! -S /dev/log ] || { skip "$desc" "/dev/log is here: the guard logs to the system log, which the test does not read"; return 1; }
    # The run: box run with its guard, and a record of a changed
    # vm.swappiness named with its helper's tag.
    BOX_GUARD=1 sh "$box" run 16M sleep 600 >/dev/null 2>&1 9<&- &
    gh=$!
    gtag=$(sh "$box" tag "$gh")
    mine="$mine $gtag"
    # shellcheck disable=SC2317 # called through wait_for
    # (heads: not a child it has forked and that is not yet what it runs.)
    # shellcheck disable=SC2046 # the PIDs, a word each
    guard_up() { g=$(heads $(pgrep -u 0 -f "^sh .*/scripts/box guard-watch $gtag\$")); [ -n "$g" ] && [ "$(echo "$g" | wc -l)" -eq 1 ] && boxed_run_of "$gtag"; }
    wait_for guard_up || { fail "$desc" "its guard or its box did not start"; own_kill -KILL "$gh"; return 1; }
    was=$(cat /proc/sys/vm/swappiness)
    new=$((was == 33 ? 34 : 33))
    echo "$was" | (umask 077 && dd of="$state_dir/swap-test.$gtag.swappiness" conv=excl status=none) && echo "$new" >/proc/sys/vm/swappiness
    pc=$pids_mnt/swap-box.$tag.pids
    if ! e=$( { mkdir "$pc" && echo 3 >"$pc/pids.max" && echo "$g" >"$pc/cgroup.procs"; } 2>&1); then
        fail "$desc" "cannot put the guard (PID $g) in $pc: $e"
        own_kill -KILL "$gh"
        return 1
    fi
    # (The guards' log, and the one before it should it have just turned.)
    # shellcheck disable=SC2317 # called below
    guard_lines() { cat "$state_dir/guard.log.1" "$state_dir/guard.log" 2>/dev/null; }
    own_kill -KILL "$gh"
    wait "$gh" 2>/dev/null
    # Tried and denied, again and again (pids.events counts each fork
    # denied; a try a second): its one line says so, in words.
    # shellcheck disable=SC2317 # called through wait_for
    denied() { [ "$(awk '$1 == "max" { print $2 }' "$pc/pids.events" 2>/dev/null)" -ge "$1" ] 2>/dev/null; }
    # shellcheck disable=SC2317 # called through wait_for
    logged() { guard_lines | grep -q "guard of PID $gh ($gtag): not done yet, trying again: cannot tell what is left: a process it needs could not be started (its pids cgroup, $pc, allows 3 tasks in all)"; }
    wait_for logged && wait_for denied 2
    d0=$(awk '$1 == "max" { print $2 }' "$pc/pids.events")
    wait_max=100 wait_for denied $((d0 + 10))
    d1=$(awk '$1 == "max" { print $2 }' "$pc/pids.events")
    # shellcheck disable=SC2317 # called by ok
    held_back() {
        logged && [ "$d1" -ge $((d0 + 10)) ] && [ "$(guard_lines | grep -c "guard of PID $gh ")" -eq 1 ] &&
            [ -n "$(box_of "$gtag")" ] && [ "$(cat /proc/sys/vm/swappiness)" -eq "$new" ] && return 0
        echo "log: $(guard_lines | grep "guard of PID $gh "); forks denied: $d0, then $d1; box: $(box_of "$gtag"); vm.swappiness $(cat /proc/sys/vm/swappiness)" >&2
        return 1
    }
    ok "$desc: its run killed, forks denied ($d1 so far), one line in words, nothing undone yet ($(guard_lines | grep "guard of PID $gh " | cut -c1-150))" held_back
    ok "$desc: the guard is still there (PID $g, state $(state_of "$g"))" not dead "$g"
    echo max >"$pc/pids.max"
    t0=$(date +%s)
    # shellcheck disable=SC2317 # called through wait_for and ok
    undone() { [ -z "$(box_of "$gtag")" ] && [ "$(cat /proc/sys/vm/swappiness)" -eq "$was" ] && [ ! -e "$state_dir/swap-test.$gtag.swappiness" ]; }
    wait_max=300 wait_for undone
    t=$(($(date +%s) - t0))
    ok "$desc: the PIDs back, all undone in $t s of 30 (box ended, vm.swappiness $was again)" undone
    # Its last line is written after what it undid: looked for once the
    # guard is gone.
    # shellcheck disable=SC2016 # expanded by that sh
    wait_for sh -c '! pgrep -f "box guard-watch $1\$" >/dev/null' sh "$gtag"
    # shellcheck disable=SC2317 # called by ok
    log_read() {
        l=$(guard_lines | grep "guard of PID $gh ")
        [ "$(echo "$l" | wc -l)" -eq 3 ] && echo "$l" | sed -n 2p | grep -q "it has ended; undoing what it left: box .*swap-box.$gtag" &&
            echo "$l" | sed -n 3p | grep -q "done: box .*swap-box.$gtag removed, $n_in process(es) in it ended .*; vm.swappiness put back to $was" &&
            ! echo "$l" | grep -qi 'fork\|eval' && return 0
        echo "$l" >&2
        return 1
    }
    ok "$desc: its log, three lines (why it waited, what it found, what it undid), no shell's error" log_read
    ok "$desc: the pids cgroup given back" pids_gone
}
guard_test || { n=$((n + 4)); for k in 1 2 3 4; do echo "ok $((n - 4 + k)) - the guard, pids.max 3 # SKIP as above"; done; }
pids_gone

# ---- 14-18. box run -p, its helper killed while its caller (this test's
# shell) lives.
# p_boxed N: box run -p N 16M sleep 600 started, with BOX_GUARD as set,
# and found running in its box swap-box.TAG.N (TAG this shell's): the
# helper in $ph, its tag in $ptag, the sleep in $sl (and its start, $sls).
p_boxed() {
    mine="$mine $tag.$1"
    sh "$box" run -p "$1" 16M sleep 600 >/dev/null 2>&1 9<&- &
    ph=$!
    ptag=$(sh "$box" tag "$ph")
    sl=''
    # shellcheck disable=SC2317 # called through wait_for
    p_running() { for d in $(box_of "$tag.$1"); do read -r sl <"$d/cgroup.procs" && [ "$(state_of "$sl")" = S ] && return 0; done 2>/dev/null; return 1; }
    wait_for p_running "$1" || return 1
    sls=$(start_of "$sl")
}
# p_ended N: no box swap-box.TAG.N, the sleep gone (or a zombie, which
# PID 1 reaps when it will), no record of the helper's.
# shellcheck disable=SC2317 # called by ok and wait_for
p_ended() {
    [ -z "$(box_of "$tag.$1")" ] && { [ "$(start_of "$sl")" != "$sls" ] || [ "$(state_of "$sl")" = Z ]; } &&
        [ ! -e "$state_dir/swap-box.$ptag.pbox" ] && return 0
    echo "box: $(box_of "$tag.$1"); sleep $sl: $(state_of "$sl"); record: $(ls "$state_dir/swap-box.$ptag.pbox" 2>&1)" >&2
    return 1
}
if p_boxed 5; then
    ok "box run -p 5: its record of the caller's box, swap-box.$tag.5 ($(cat "$state_dir/swap-box.$ptag.pbox" 2>&1))" \
        [ "$(cat "$state_dir/swap-box.$ptag.pbox" 2>/dev/null)" = "$tag.5" ]
    own_kill -KILL "$ph"
    wait "$ph" 2>/dev/null
    # shellcheck disable=SC2317 # called by ok
    p_lives() { [ -n "$(box_of "$tag.5")" ] && [ "$(start_of "$sl")" = "$sls" ]; }
    ok "its helper killed (SIGKILL), the caller alive: the box and its sleep live on" p_lives
    run sh "$box" sweep
    ok "the next sweep ends them ($(cut -c1-200 "$err"))" grep -q "cleaned up after runs that were killed: the box swap-box.$tag.5 of a box run -p helper: box .* removed, $n_in process(es) in it ended (PID $ph is gone)" "$err"
    ok "nothing of it is left: no box, no sleep, no record" p_ended 5
else
    fail "box run -p 5: its sleep running in its box"
    for t in "killed: lives on" "sweep ends it" "nothing left"; do skip "$t" "it was never seen in its box"; done
fi
if BOX_GUARD=1 p_boxed 6; then
    own_kill -KILL "$ph"
    wait "$ph" 2>/dev/null
    t0=$(date +%s)
    wait_max=300 wait_for p_ended 6 2>/dev/null
    ok "box run -p 6 with its guard, its helper killed: no box, sleep or record within 30 s, no sweep (after $(($(date +%s) - t0)) s)" p_ended 6
else
    fail "box run -p 6: its sleep running in its box"
fi
done_testing
