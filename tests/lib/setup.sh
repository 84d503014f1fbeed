# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# What every test does first (begin), last (cleanup), and may need.

# begin ARGS: paths, this user's folders, a sweep (not within a turn: 17
# leaves things a moment), tag, folder (TMPDIR), the census (ARGS).
begin() {
    top=$(cd "$(dirname "$0")/.." && pwd)
    swap=$top/swap box=$top/scripts/box lab=$top/scripts/lab
    box_files="$box $top/scripts/lib.sh $top/scripts/report $top/scripts/gate $top/scripts/undo $top/scripts/asker"
    census_start "$@"
    turn_log start
    nl='
'
    dirs=$(sh "$box" dirs) || exit 1
    state_dir=${dirs%%"$nl"*} work_dir=${dirs#*"$nl"}
    if [ -z "${no_sweep-}" ]; then
        if [ -n "${SWAP_TEST_TURN-}" ] || ! command -v flock >/dev/null 2>&1; then
            sh "$box" sweep -q
            sweep_users
        elif exec 9<"$state_dir" && flock -n 9; then
            sh "$box" sweep -q
            sweep_users
            flock -u 9
        fi
        exec 9<&-
    fi
    tag=$(sh "$box" tag $$) || exit 1
    # (The chain of turns is make check's length: root takes 0 back with one.)
    renice -n 15 -p $$ >/dev/null 2>&1
    tmp=$(mktemp -d "$work_dir/swap-test.$tag.XXXXXX") || exit 1
    # (Not /tmp: another user's.)  Guards and class watches look often.
    TMPDIR=$tmp BOX_GUARD_POLL=0.1 CLASS_EVERY=0.1
    export TMPDIR BOX_GUARD_POLL CLASS_EVERY
    out=$tmp/out err=$tmp/err rc=0 self_uid=$(id -u)
    # Whose runs root's flows start (under sudo hers); the gate's runs.
    run_uid=$self_uid gated_re=/proc/self/fd/9
    case $self_uid:${SUDO_UID-} in 0:*[!0-9]*|0:|0:0) ;; 0:*) run_uid=$SUDO_UID ;; esac
    n=0 failures=0
    test_swapfile='' users='' turn='' at_exit='' asker_tmp='' held_in='' held_n=0 sock=''
    trap cleanup EXIT
    trap 'exit 1' INT TERM HUP
    # A ./swap that never ends fails every test at once, not at its waits.
    if [ -x "$swap" ] && { timeout -k 5 10 "$swap" 4K >/dev/null 2>&1; [ $? -eq 124 ]; }; then
        echo "1..1"
        fail "$swap 4K ends within 10 s" "it did not: every run of it would hang"
        exit 1
    fi
    # In a small box of its own (a container's -m 64m) a plain run swaps too.
    runner_boxed=$(runner_limit_mb)
    [ -z "$runner_boxed" ] || [ "$runner_boxed" -ge 512 ] || swap_lock
}

# cleanup: at_exit, then what the test started and did not reap (it
# ended half-way), and all it made.
cleanup() {
    let_go
    term_stop
    [ -z "$at_exit" ] || "$at_exit"
    for _c in /proc/[0-9]*; do own_kill -KILL "${_c#/proc/}"; done
    [ -z "$asker_tmp" ] || as_asker rm -rf "$asker_tmp"
    [ -z "$test_swapfile" ] || sh "$box" swapoff "$test_swapfile"
    for u in $users; do
        remove_student "${u#*=}" "$tag" && rm -f "$state_dir/test-user.$tag.${u%%=*}"
    done
    rm -rf "$tmp" "/var/lib/swap-canary.$tag"
    # (Unlocked, not closed: a run still going holds the descriptor too.)
    [ -z "$turn" ] || { turn_log ends; flock -u 9; }
}

is_root() { [ "$self_uid" -eq 0 ]; }
# swap_lock: the test's turn among this user's tests to swap or box (two
# boxed runs share a device's readahead).  swap_done: given up early.
swap_lock() {
    [ -z "$turn" ] && [ -z "${SWAP_TEST_TURN-}" ] || return 0
    command -v flock >/dev/null 2>&1 || return 0
    exec 9<"$state_dir" || return 1
    if ! flock -w "${TEST_TURN_MAX:-1800}" 9; then
        fail "this test's turn within ${TEST_TURN_MAX:-1800} s" "another test of this user's has held it so long"
        exit 1
    fi
    turn=1 && turn_log take && export SWAP_TEST_TURN=1
    renice -n 0 -p $$ >/dev/null 2>&1
    [ -n "${no_sweep-}" ] || { sh "$box" sweep -q; sweep_users; }
}
swap_done() {
    [ -z "$test_swapfile" ] || { sh "$box" swapoff "$test_swapfile" && test_swapfile=''; }
    [ -z "$turn" ] || { turn_log ends && flock -u 9 && exec 9<&- && turn=''; }
    unset SWAP_TEST_TURN
}
turn_log() { [ -z "${TEST_TURN_LOG-}" ] || echo "$(date +%s.%N) $1 ${0##*/}" >>"$TEST_TURN_LOG"; }

# want_swap: the turn, and swap on (as root with TEST_SWAPFILE=1, a
# swapfile the cleanup removes); else 1, why in $swap_why.
want_swap() {
    swap_lock
    { read -r _ && read -r _; } 2>/dev/null </proc/swaps && return 0
    swap_why="no swap is on (as root, TEST_SWAPFILE=1 lets the tests make a temporary swapfile)"
    [ "${TEST_SWAPFILE:-0}" = 1 ] || return 1
    swap_why="no swap is on, and only root may make a swapfile"
    is_root || return 1
    test_swapfile=$work_dir/swap-test.$tag.swapfile
    sh "$box" swapon "$test_swapfile" 2>"$tmp/swapon.err" && return 0
    test_swapfile=''
    swap_why="cannot turn on a swapfile: $(cat "$tmp/swapon.err")"
    return 1
}
need_swap() { want_swap || box_skip_all "$swap_why"; }
need_box() {
    how=$(sh "$box" how) || box_skip_all "no way to make a memory box: ${how#none: }"
    diag "box: $how"
}
# runner_limit_mb: the tests' own limit, MB; need_room MB: skipped below.
runner_limit_mb() { rl=$(sh "$box" limit 2>/dev/null) && echo $((${rl%% *} / 1048576)); }
need_room() {
    lim=$(runner_limit_mb)
    [ -z "$lim" ] || [ "$lim" -ge $(($1 + 32)) ] ||
        skip_all "this runner is itself limited to $lim MB, below the $1 MB a plain run needs"
}
# small_box: run_mb in box_mb, the lesson's proportions (docs/tests.md).
# rss_lag_mb: how far below the truth VmRSS may read (docs/kernels.md).
small_box() {
    run_mb=32
    [ "$(getconf PAGESIZE)" -le 4096 ] || run_mb=64
    box_mb=$((run_mb / 4))
}
rss_lag_mb() { echo $((64 * $(getconf PAGESIZE) / 1048576)); }
