#!/bin/sh
# Nothing left behind even after kill -9.  Each helper is killed with
# SIGKILL at the worst moment, so that it cannot clean up: make demo while
# its boxed run goes, with its temporary swapfile on; a boxed run; the
# 1997 script while it has a box, its file and (cgroup v2) a changed
# vm.swappiness or (MGLRU) a switched LRU.  Then scripts/box sweep -n lists
# what is left, and the next run (or the sweep) undoes it all and says so in
# one line.  A sweep leaves alone what a live run owns, and what is not
# named as ours.  The boxed runs map 256 MB in 16 MB boxes and are held by
# their pause (swap --pause, a flow's PAUSE=1) at their first line, before
# they write a page, so that no check races a run's end on a loaded, traced
# (the census) or emulated machine; the live one (32 MB, 64 MB with pages
# larger than 4 KiB) at its line for 24 MB, with pages in swap.  Last, the
# same kills with the guard on, as a teacher's runs have it: make demo,
# make class and the 1997 script, killed while their runs are held in
# their boxes, leave nothing 30 s later, with no one sweeping.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
is_root || skip_all "not root: the runs that leave boxes, swapfiles and settings behind need root"
need_box
swap_lock
plan 27
# What is tested here is the sweep itself: the guards that root's flows
# start (scripts/box guard) would undo what a kill -9 left before the
# sweep could see it.  tests/22 tests a guard.
BOX_GUARD=0
export BOX_GUARD

cva=$top/scripts/cache-vs-anon
# Our program in a box, this checkout's (the demo runs ./swap) and this
# user's, running (a killed one may stay a zombie until PID 1 reaps it;
# another user's may run beside, and another test's plain runs).
# (The demo runs ./swap; systemd-run --scope starts it as $top/./swap.)
procs() { is_swap "$(pgrep -u "$run_uid" -f "^($swap|$top/\./swap|\./swap|$gated_re)( |\$)")" | while read -r p; do
    in_cgroup_named "$p" swap-box || continue
    case $(state_of "$p") in Z|'') ;; *) echo "$p" ;; esac; done; }
# shellcheck disable=SC2317 # called through wait_for
no_boxed_run() { ! boxed_run_of ''; }
# in_box FILE: the run that paused last (its prompts in FILE), $paused_at,
# is in a box; boxed_pause FILE: the flow's runs let go until one is.
# shellcheck disable=SC2317 # called through boxed_pause
in_box() {
    paused_at=$(paused_pid "$1" "$(grep -c '^swap: PID [0-9]* paused: ' "$1")")
    in_cgroup_named "$paused_at" swap-box
}
boxed_pause() {
    wait_for paused "$1" || return 1
    in_box "$1" || { next_run "$1" && in_box "$1"; }
}
# held_run: every ./swap of ours in a box is still there, asleep (S; t
# under strace) in its pause.
# shellcheck disable=SC2317 # called by the predicates below
held_run() {
    [ -n "$(procs)" ] || { echo "no run of ours in a box" >&2; return 1; }
    for p in $(procs); do
        case $(state_of "$p") in S|t) ;; *) echo "procs: $(procs); $p is $(state_of "$p")" >&2; return 1 ;; esac
    done
}
# said DESC WHAT: the one line on stderr ($err) says it cleaned up, naming WHAT.
said() { ok "$1: $(grep 'cleaned up' "$err" | cut -c1-200)" cleaned_naming "$2"; }
# shellcheck disable=SC2317 # called by ok
cleaned_naming() { [ "$(grep -c 'cleaned up after runs that were killed' "$err")" -eq 1 ] && grep -q "$1" "$err"; }
# Predicates for ok; what they found, on stderr.  left_by_demo: the
# killed demo's run is held, its swapfile on, its box there.  lists_demo:
# sweep -n named the demo's swapfile and PID.  swapfile_kept: the run
# held, the demo's swapfile still on.  swapfile_gone SF: the next test's
# setup turned SF off and deleted it.
# shellcheck disable=SC2317 # called by ok
left_by_demo() {
    held_run && grep -q "^$left_swapfile " /proc/swaps && [ -n "$(boxes)" ] && return 0
    echo "procs: $(procs)" "$(cat /proc/swaps)" >&2
    return 1
}
# shellcheck disable=SC2317 # called by ok
lists_demo() { [ "$rc" -eq 0 ] && grep -q "swapfile $left_swapfile" "$out" && grep -q "PID $demo," "$out"; }
# shellcheck disable=SC2317 # called by ok
swapfile_kept() {
    held_run && grep -q "^$left_swapfile " /proc/swaps && return 0
    echo "procs: $(procs)" "$(cat /proc/swaps)" >&2
    return 1
}
# shellcheck disable=SC2317 # called by ok
swapfile_gone() { grep -q "swapfile $1 turned off and deleted" "$err" && ! grep -q "^$1 " /proc/swaps && [ ! -e "$1" ]; }

# 1. make demo, killed while its boxed run is held in its box, with
# its own temporary swapfile on.  Needs no swap on before, so that it makes
# one.
if [ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ]; then
    for t in "demo killed: the boxed run goes on" "demo killed: sweep -n lists" "sweep -n changes nothing" \
        "next demo: says what it cleaned" "next demo: works" "nothing of the killed demo left"; do
        skip "$t" "swap is on already here, so make demo would make no temporary swapfile"
    done
else
    hold "$tmp/demo.out"
    (cd "$top" && exec env TEMP_SWAP=1 BOX=16M sh scripts/lab demo ./swap --pause) <"$held_in" >"$tmp/demo.out" 2>&1 6>&- 9<&- &
    demo=$!
    demo_tag=$(sh "$box" tag "$demo")
    # (Its plain run first, let go; then its boxed run, paused in the demo's box.)
    boxed_pause "$tmp/demo.out" &&
        in_cgroup_named "$paused_at" "swap-box.$demo_tag" "swap-box-${demo_tag%%.*}-${demo_tag#*.}"
    end_child "$demo"
    left_swapfile=$work_dir/swap-demo.$demo_tag.swapfile
    ok "demo killed (SIGKILL) while its run is held in its box: its run lives on, its box and swapfile are left" left_by_demo
    run sh "$box" sweep -n
    ok "sweep -n lists what the demo left, and whose: $(tr '\n' '|' <"$out" | cut -c1-200)" lists_demo
    ok "sweep -n changes nothing" swapfile_kept

    # The next demo: it sweeps first, then makes its own temporary swapfile.
    # shellcheck disable=SC2016 # expanded by that sh
    run sh -c 'cd "$1" && exec env TEMP_SWAP=1 BOX=64M sh scripts/lab demo ./swap 16M' sh "$top"
    said "the next make demo says what it cleaned" "swapfile $left_swapfile turned off and deleted"
    is "the next make demo works (exit 0)" "$rc" -eq 0
    left=$(procs; boxes; ls "$left_swapfile" 2>/dev/null; grep "swap-demo" /proc/swaps)
    ok "nothing of the killed demo is left" [ -z "$left" ]
fi

# 2. The test suite's own leftovers: a test killed with its swapfile on is
# cleaned by the next test's setup.
if [ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ]; then
    skip "a killed test's swapfile is swept by the next test" "swap is on already here: the test would make no swapfile"
else
    # A test that makes its swapfile and is killed ($0 tells lib.sh where it is).
    # shellcheck disable=SC2016 # expanded by that test
    TEST_SWAPFILE=1 sh -c '. "$(dirname "$0")/lib.sh"; begin; want_swap && echo "$test_swapfile" && exec sleep 100' \
        "$top/tests/leaver" >"$tmp/leaver.out" 2>&1 &
    leaver=$!
    wait_for grep -qs swapfile "$tmp/leaver.out"
    own_kill -KILL "$leaver"
    sf=$(cat "$tmp/leaver.out")
    # The next test's setup (begin), and nothing after it.
    # shellcheck disable=SC2016 # expanded by that test
    run sh -c '. "$(dirname "$0")/lib.sh"; begin' "$top/tests/next"
    ok "a test killed with its swapfile on ($sf): the next test's setup turns it off and deletes it" swapfile_gone "$sf"
fi
# 3. A boxed run, its box helper killed: scripts/box sweep ends the run and
# removes the box (or stops the systemd scope).
if ! want_swap; then
    for t in "box run killed" "sweep: says" "sweep: nothing left"; do box_skip "$t" "$swap_why"; done
else
    hold "$tmp/runner.err"
    sh "$box" run 16M "$swap" --pause 256M <"$held_in" >/dev/null 2>"$tmp/runner.err" 6>&- 9<&- &
    runner=$!
    runner_tag=$(sh "$box" tag "$runner")
    wait_for paused "$tmp/runner.err" || diag "the run never paused: $(cat "$tmp/runner.err")"
    end_child "$runner"
    ok "box run killed (SIGKILL): ./swap lives on in its box" held_run
    run sh "$box" sweep
    said "scripts/box sweep says what it cleaned" "PID $runner is gone"
    # shellcheck disable=SC2317 # called through wait_for
    runner_left() { procs; boxed_run_of "$runner_tag" && echo "box of $runner_tag"; }
    wait_max=100 wait_for none runner_left
    left=$(runner_left)
    ok "after the sweep: no process, no box" [ -z "$left" ]
fi

# 4. The 1997 script, killed while a row's run is held in its box: its
# box, file and work folder are left, and on cgroup v2 the vm.swappiness
# it set, with MGLRU the LRU it switched.  The next run of it cleans them
# first.
swappiness=$(cat /proc/sys/vm/swappiness) lg=/sys/kernel/mm/lru_gen/enabled
lru=$(cat "$lg" 2>/dev/null)
if ! want_swap; then
    for t in "cva killed" "cva: says" "cva: works" "cva: nothing left" "cva swappiness" "cva lru"; do box_skip "$t" "$swap_why"; done
else
    # Rows of half the script's own sizes (a 16 MB file, 16 MB in 32 MB
    # boxes): what is left and cleaned is the same.  (With less, the row at
    # swappiness 0 cannot fit: at 64 KiB pages 12 MB in a 16 MB box, beside
    # the row's own shell and awk, met the OOM killer, which took the awk
    # too, and the row failed.)
    export CVA_BOX=32M CVA_FILE_MB=16 CVA_SIZE=16M
    # Its rows run in boxes of their own helpers (scripts/box run), which
    # live on and finish the row once its run is let go; what is the
    # killed run's own stays.
    hold "$tmp/cva.err"
    PAUSE=1 sh "$cva" 200 <"$held_in" >/dev/null 2>"$tmp/cva.err" 6>&- 9<&- &
    c=$!
    c_tag=$(sh "$box" tag "$c")
    c_held=''
    wait_for paused "$tmp/cva.err" && c_held=$(paused_pid "$tmp/cva.err")
    changed=$(cat /proc/sys/vm/swappiness)
    end_child "$c"
    let_go
    wait_for no_boxed_run
    left=$(ls -d "$work_dir"/swap-cva."$c_tag".* "$state_dir"/swap-cva."$c_tag".* 2>/dev/null)
    # shellcheck disable=SC2317 # called by ok
    cva_left() { [ -n "$c_held" ] && [ -n "$left" ]; }
    ok "cache-vs-anon killed (SIGKILL) while a row's run is held: its file and folder are left (${c_held:+held PID $c_held, }left: $(printf "%s " "$left" | tr "\n" " "))" cva_left
    run sh "$cva" -c 0
    said "the next cache-vs-anon says what it cleaned" "swap-cva.$c_tag"
    is "the next cache-vs-anon works (exit 0)" "$rc" -eq 0
    left=$({ ls -d "$work_dir"/swap-cva.* "$state_dir"/swap-cva.* 2>/dev/null; boxes; } | keep_gone)
    ok "nothing of the killed cache-vs-anon is left" [ -z "$left" ]
    if [ "$changed" = "$swappiness" ]; then
        skip "vm.swappiness the killed run set (200) is put back" "cgroup v1: each box has its own memory.swappiness, vm.swappiness was never changed"
    else
        is "vm.swappiness the killed run set ($changed) is put back to $swappiness" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"
    fi
    if [ -z "$lru" ]; then
        skip "lru_gen/enabled the killed run switched is put back" "no MGLRU in this kernel ($(uname -r))"
    else
        # Killed while the other LRU is on: once the last row under the LRU
        # in use is out, the script switches, and the next row runs under
        # it.  Each row's run is paused at its start in turn and
        # lru_gen/enabled read while it is; the first under the other LRU
        # is where it is killed.  (Up to 600 s a row: on an emulated
        # machine a re-read row under MGLRU took 377 s.)
        hold "$tmp/cva.out"
        env PAUSE=1 CVA_REREAD_MAX=2 sh "$cva" 0 <"$held_in" >"$tmp/cva.out" 2>&1 6>&- 9<&- &
        c=$!
        switched=$lru
        wait_max=6000
        under_other_lru "$tmp/cva.out" "$lru"
        wait_max=$wait_default
        end_child "$c"
        let_go
        wait_for no_boxed_run
        # A row's own scripts/box run, started just before the kill, may
        # live on and sweep first; its lines go where the script's went.
        run sh "$box" sweep
        # shellcheck disable=SC2317 # called by ok
        lru_back() {
            [ "$switched" != "$lru" ] && [ "$(cat "$lg")" = "$lru" ] &&
                cat "$err" "$tmp/cva.out" | grep -q "lru_gen/enabled put back to $lru"
        }
        ok "lru_gen/enabled the killed run switched ($switched) is put back to $lru" lru_back
    fi
fi

# 5. A sweep leaves a live run alone, one with pages in swap: it finishes
# intact.  The run is held by its pause at its line for 24 MB, more than
# its 16 MB box holds.  (32 MB where pages are 4 KiB, 64 MB with larger
# ones.)
# shellcheck disable=SC2317 # called by ok
held_in_swap() {
    held_run && [ "$(awk '$1 == "VmSwap:" { print $2 }' "/proc/$(procs)/status" 2>/dev/null)" -gt 0 ] 2>/dev/null && return 0
    echo "procs: $(procs); $(grep -h '^Vm\(RSS\|Swap\)' "/proc/$(procs)/status" 2>/dev/null | tr -s ' \n' ' ')" >&2
    return 1
}
live_mb=32
[ "$(getconf PAGESIZE)" -le 4096 ] || live_mb=64
if ! want_swap; then
    for t in "a live run held in swap" "a live run is left alone" "the live run still runs" "the live run finishes intact"; do box_skip "$t" "$swap_why"; done
else
    hold "$tmp/live.out" "$tmp/live.err"
    sh "$box" run 16M "$swap" --pause -i 8M "${live_mb}M" <"$held_in" >"$tmp/live.out" 2>"$tmp/live.err" 6>&- 9<&- &
    live=$!
    # (Its start, then 8, 16 and 24 MB written: the fourth pause.)
    go 3
    wait_for paused "$tmp/live.err" 4
    ok "a live run held with 24 MB written in its 16 MB box: $(tail -n 1 "$tmp/live.out" | tr -s ' ')" held_in_swap
    run sh "$box" sweep
    ok "a sweep during a live run: nothing to clean ($(cat "$err"))" failed_saying 0 'nothing left behind'
    ok "the live run still there after the sweep, as it was, pages in swap" held_in_swap
    let_go
    reap "$live"
    is "the live run finishes intact (exit ${st:-none}, every page read back: $(tail -n 1 "$tmp/live.out" | tr -s ' '))" "$st" -eq 0
fi

# 6. What is not named as ours is not touched: a file called swap-*, and a
# name with no owner tag.
touch "$work_dir/swap-notours.$$" "$work_dir/swap-demo.$$.swapfile"
run sh "$box" sweep
ok "a name without an owner tag (swap-notours.$$) is left alone" [ -e "$work_dir/swap-notours.$$" ]
ok "a name without an owner tag (swap-demo.$$.swapfile) is left alone" [ -e "$work_dir/swap-demo.$$.swapfile" ]
rm -f "$work_dir/swap-notours.$$" "$work_dir/swap-demo.$$.swapfile"
# A name's owner is its PID *and* that process's start time: a folder
# tagged with this live shell's PID but another start time was left by a
# run whose PID has been given to this shell since, and goes; one with the
# real start time is this shell's, and stays.
start=$(sed -n 's/.*) //p' "/proc/$$/stat" | awk '{ print $20 }')
mkdir -m 700 "$work_dir/swap-tmp.$$.$((start + 1))" "$work_dir/swap-tmp.$$.$start"
run sh "$box" sweep
ok "a live PID with another start time is a dead owner's (swept)" [ ! -e "$work_dir/swap-tmp.$$.$((start + 1))" ]
ok "with its own, a live one's (kept)" [ -d "$work_dir/swap-tmp.$$.$start" ]
rmdir "$work_dir/swap-tmp.$$".* 2>/dev/null

# 7. With the guard (scripts/box guard), as a teacher's runs have it: a
# flow killed with -9 while its run is held in its box leaves nothing 30 s
# later, with no one sweeping: no run, no box, no file, record or swapfile
# named with its tag, vm.swappiness as it was.
# guarded DESC CMD...: CMD, a flow whose runs pause (swap --pause,
# PAUSE=1), started; once its run is paused in its box (a row of the 1997
# script is over in a tenth of a second), the flow killed.
guarded() {
    desc=$1
    shift
    hold "$tmp/guarded.out"
    "$@" <"$held_in" >"$tmp/guarded.out" 2>&1 6>&- 9<&- &
    g=$!
    g_tag=$(sh "$box" tag "$g")
    if ! boxed_pause "$tmp/guarded.out"; then
        let_go
        end_child "$g"
        fail "$desc killed (SIGKILL), with its guard: nothing left within 30 s" "its run never paused in its box" "$(cat "$tmp/guarded.out")"
        return
    fi
    end_child "$g"
    # shellcheck disable=SC2317 # called through wait_for
    g_left() {
        procs
        boxes | grep -F -e "$g_tag" -e "$(echo "$g_tag" | tr . -)"
        ls -d "$work_dir"/swap-*."$g_tag".* "$state_dir"/swap-*."$g_tag".* 2>/dev/null
        grep -F "$g_tag" /proc/swaps
        [ "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness" ] || echo "vm.swappiness $(cat /proc/sys/vm/swappiness)"
    }
    t0=$(date +%s)
    wait_max=300
    wait_for none g_left
    wait_max=$wait_default
    left=$(g_left)
    let_go
    ok "$desc killed (SIGKILL), with its guard: nothing left within 30 s, no sweep (after $(($(date +%s) - t0)) s)" [ -z "$left" ]
}
if ! want_swap; then
    for t in "demo, guarded" "class, guarded" "cva, guarded"; do box_skip "$t" "$swap_why"; done
else
    # shellcheck disable=SC2016 # expanded by that sh
    guarded "make demo TEMP_SWAP=1" sh -c 'cd "$1" && exec env BOX_GUARD=1 TEMP_SWAP=1 BOX=16M sh scripts/lab demo ./swap --pause' sh "$top"
    guarded "make class N=2" env BOX_GUARD=1 BOX=16M PAUSE=1 sh "$lab" class 2 256M
    guarded "scripts/cache-vs-anon" env BOX_GUARD=1 PAUSE=1 sh "$cva" 200
fi
done_testing
