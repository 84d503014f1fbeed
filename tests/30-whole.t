#!/bin/sh
# A box ends whole (scripts/lib.sh: kill_box, box_end).
#  - A program whose main thread has called pthread_exit while its other
#    thread runs (tests/leader_exit.c: the leader shows Z), its box
#    helper killed: the sweep ends it whole, through the box's freezer
#    cgroup, and again with the freezer taken away (in rounds), and says
#    so; held still by a frozen freezer cgroup of the test's own, the sweep
#    says it could not, naming what is left, and ends it once let go.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
is_root || skip_all "not root: the boxes under test are root's cgroups"
need_box
swap_lock
plan 8
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
# shellcheck disable=SC2317 # called through at_exit
all_gone() { unhold; end_mine; }
at_exit=all_gone

# ---- 1-8. A leader that has called pthread_exit, in a box.
cc=${CC:-cc}
built=''
$cc -std=c11 -O2 -pthread -o "$tmp/leader_exit" "$top/tests/leader_exit.c" 2>"$tmp/cc.err" && built=1
# leader_boxed: leader_exit started in a 16 MB box (box run, no guard),
# and found there once its leader has ended with its thread running: the
# helper in $helper (tag $htag), the box's memory cgroup in $mem, the
# leader's ID and start ($leader, $lstart), its thread's ($thread,
# $tstart).  1, with why on stderr, if it is not seen so.
leader_boxed() {
    sh "$box" run 16M "$tmp/leader_exit" >"$tmp/leader.out" 2>&1 9<&- &
    helper=$!
    htag=$(sh "$box" tag "$helper")
    mine="$mine $htag"
    mem='' leader='' thread=''
    # shellcheck disable=SC2317 # called through wait_for
    leader_ended() {
        grep -qx ready "$tmp/leader.out" 2>/dev/null || return 1
        for d in $(box_of "$htag"); do [ -f "$d/freezer.state" ] || mem=$d; done
        [ -n "$mem" ] && read -r leader <"$mem/cgroup.procs" && read -r thread <"$(tasks_of "$mem")" &&
            [ "$(state_of "$leader")" = Z ] && [ "$thread" != "$leader" ]
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
# swept_whole: the sweep's one line says the box was removed with the one
# process in it, and no line says it could not.
# shellcheck disable=SC2317 # called by ok
swept_whole() {
    [ "$rc" -eq 0 ] && grep -q "cleaned up after runs that were killed: .*box $mem removed, 1 process(es) in it ended (PID $helper is gone)" "$err" &&
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

done_testing
