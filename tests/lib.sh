# SPDX-License-Identifier: MIT
# Sourced by every tests/*.t: TAP output, running ./swap, reading its
# numbers, and the machine changes a test may make (swapfile, THP mode),
# all undone by one cleanup on exit, failure or signal.
#
# Environment:
#   REQUIRE_BOX=1     a box test that cannot run fails instead of skipping
#   TEST_SWAPFILE=1   as root with no swap on, make a temporary 1 GiB swapfile
#   TEST_TURN_LOG=F   each test adds a line to F (a file of the caller's,
#                     appended to) as it starts, as it takes its turn and
#                     as it lets it go: the chain of turns, which is make
#                     check's length, and how long it waited to begin
#   TEST_WAIT_LOG=F   each wait_for adds a line to F: hundredths of a
#                     second it waited, the test, what it waited for
#
# make check runs five tests at a time (JOBS, in the Makefile).  Those
# that swap, make boxes or read what swap is on take turns (swap_lock):
# two boxed runs at once would share the swap device, and each one's pages
# would come back with less of the readahead that the fault counts measure.

set -u

# The census (make census): its functions, in tests/census.sh.
# shellcheck source=tests/census.sh
. "$(dirname "$0")/census.sh"
# How a line of swap's report is read (report_awk, report_line): as the
# scripts read it.
# shellcheck source=scripts/report
. "$(dirname "$0")/../scripts/report"


# remove_student NAME TAG: an unprivileged user a test made (make_student), with
# what it planted (removed as that user, so root follows none of its links),
# its cgroups, and the test's root-owned canary folders: /var/lib/swap-canary.TAG,
# and on another file system /tmp or /var/tmp/swap-canary.TAG.XXXXXX.
# shellcheck disable=SC1090,SC2034 # scripts/box, for its cgroup readers
remove_student() { (box_library=1 box_self=$box && . "$box" && remove_student_in "$@"); }
remove_student_in() {
    # Her processes ended by herself: kill -1 as she (every process she may
    # signal, in one call, in the kernel), not a list of PIDs read first,
    # some of which her own shells may reap, and free, before the kill.
    runuser -u "$1" -- kill -KILL -1 2>/dev/null
    i=0
    # (Looked for every hundredth of a second, up to 5 s.)
    while pgrep -u "$1" >/dev/null 2>&1 && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
    runuser -u "$1" -- find /tmp /var/tmp -mindepth 1 -maxdepth 1 -user "$1" -exec rm -rf {} + 2>/dev/null
    cgroup_mounts
    # shellcheck disable=SC2154 # set by cgroup_mounts, scripts/lib.sh
    for m in $cg_v1 $cg_v2; do
        find "$m" -depth -type d -user "$1" -exec rmdir {} + 2>/dev/null
    done
    # Its hard links to the canary are root's inode: the student cannot
    # remove them from a sticky folder.  unlink follows nothing.
    for c in "/var/lib/swap-canary.$2" $(find /tmp /var/tmp -mindepth 1 -maxdepth 1 -type d -user 0 -name "swap-canary.$2.*" 2>/dev/null); do
        [ ! -f "$c/canary" ] ||
            find /tmp /var/tmp -mindepth 1 -maxdepth 1 -samefile "$c/canary" -exec rm -f {} + 2>/dev/null
        rm -rf "$c"
    done
    userdel "$1" 2>/dev/null
    ! id -u "$1" >/dev/null 2>&1
}

# sweep_users: the users of tests that were killed (a record
# test-user.PID.START.KIND in this user's state folder, holding the name,
# whose test is gone), removed with what they made.  The tests' own:
# scripts/box's sweep knows nothing of test users, and leaves these names
# alone (they are not named swap-*).  Only names a test makes, of a user
# from UID 1000 up, are obeyed.
sweep_users() {
    for f in "$state_dir"/test-user.*.*.*; do
        { [ -f "$f" ] && [ ! -L "$f" ]; } || continue
        t=${f##*/test-user.} t=${t%.*}
        # shellcheck disable=SC1090,SC2034 # scripts/box, for owner_alive
        (box_library=1 box_self=$box && . "$box" && ! owner_alive "$t") || continue
        u=$(head -c 64 "$f" | head -n 1)
        case $u in swap-student-[0-9]*) ;; *) continue ;; esac
        digits_only=${u#swap-student-}
        case $digits_only in *[!0-9]*) continue ;; esac
        uu=$(id -u "$u" 2>/dev/null) && [ "$uu" -lt 1000 ] && continue
        remove_student "$u" "$t" && rm -f "$f" && echo "tests: the killed test's user $u removed" >&2
    done
}


# at_exit: a function of the test's, run first on the way out (a test
# stopped by a signal too).
cleanup() {
    let_go
    [ -z "$at_exit" ] || "$at_exit"
    # What it started and has not waited for (a test that ended half-way).
    for _c in /proc/[0-9]*; do own_kill -KILL "${_c#/proc/}"; done
    [ -z "$asker_tmp" ] || as_asker rm -rf "$asker_tmp"
    [ -z "$test_swapfile" ] || sh "$box" swapoff "$test_swapfile"
    if [ -n "$thp_saved" ]; then
        echo "$thp_saved" >/sys/kernel/mm/transparent_hugepage/enabled && rm -f "$state_dir/swap-test.$tag.thp"
    fi
    for u in $users; do
        remove_student "${u#*=}" "$tag" && rm -f "$state_dir/test-user.$tag.${u%%=*}"
    done
    rm -rf "$tmp"
    # (Let go explicitly: a run still going on in the background holds the
    # same descriptor.)
    [ -z "$turn" ] || { turn_log ends; flock -u 9; }
}

# begin ARGS: what every test does first, right after sourcing this file
# (which only defines): the paths, this user's folders, the sweep of what
# a killed test left (not with no_sweep=1), this test's tag and private
# folder (its TMPDIR), the census's start (not with no_census=1), and the
# one cleanup on every way out.  ARGS: the test's own, for the census.
# shellcheck disable=SC2034 # these are for the tests that source this file
begin() {
    top=$(cd "$(dirname "$0")/.." && pwd)
    swap=$top/swap
    box=$top/scripts/box
    lab=$top/scripts/lab
    # scripts/box and the files it loads: what a copy of it needs beside it.
    box_files="$box $top/scripts/lib.sh $top/scripts/report $top/scripts/gate $top/scripts/undo"
    # The census (tests/98-census.t), with make census (TEST_CENSUS=1): as
    # root, where strace can trace, each test runs again under it, with
    # all it starts, and what they create and where is written down for 98
    # to read.
    census_start "$@"
    turn_log start
    # This user's own folders (scripts/box dirs), never a shared one; then
    # what a test run that was killed left (not for a test that looks for
    # leftovers itself: no_sweep=1), unless a test that takes turns runs
    # now (swap_lock: what it leaves for a moment on purpose is not a
    # leftover; it sweeps itself); then this test's tag (scripts/box:
    # PID.START) in the names of what it makes.
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
    # A test yields the CPUs to the one whose turn it is (the chain of turns
    # is make check's length), which takes its own priority back in
    # swap_lock: as root; a user's tests all stay at 15, as they may not
    # raise it again.  (At 5, root's make check took 58-63 s here; at 15,
    # 55-58 s.)
    renice -n 15 -p $$ >/dev/null 2>&1
    tmp=$(mktemp -d "$work_dir/swap-test.$tag.XXXXXX") || exit 1
    # The tools the tests run (valgrind, compilers, podman, mktemp, sort,
    # shells) make their temporary files in this test's own folder, never
    # in /tmp, where another user may have planted a link.
    TMPDIR=$tmp
    export TMPDIR
    # The guards of root's flows (scripts/box guard) look for their owner
    # every tenth of a second: a test waits for what they put back.
    BOX_GUARD_POLL=0.1
    export BOX_GUARD_POLL
    # And make class's watch looks every tenth of a second (a teacher's,
    # every second): a class ends a tenth after its last run, not a second.
    CLASS_EVERY=0.1
    export CLASS_EVERY
    out=$tmp/out err=$tmp/err rc=0 self_uid=$(id -u)
    # Whose runs root's flows start: as root under sudo (SUDO_UID, as a
    # teacher's sudo make check has it), the user who ran sudo's; else
    # this user's (scripts/box, gate).  And how a program root ran through
    # the gate shows: its command line starts /proc/self/fd/9 (a script's,
    # after its interpreter), its name is 9.
    run_uid=$self_uid
    if [ "$self_uid" -eq 0 ]; then
        case ${SUDO_UID-} in ''|0|*[!0-9]*) ;; *) run_uid=$SUDO_UID ;; esac
    fi
    gated_re=/proc/self/fd/9
    n=0 failures=0
    test_swapfile='' thp_saved='' users='' turn='' at_exit='' asker_tmp='' held_in='' held_n=0
    trap cleanup EXIT
    trap 'exit 1' INT TERM HUP
    # A ./swap that never ends fails every test here, at once, not each at
    # its first wait.
    if [ -x "$swap" ] && { timeout -k 5 10 "$swap" 4K >/dev/null 2>&1; [ $? -eq 124 ]; }; then
        echo "1..1"
        fail "$swap 4K ends within 10 s" "it did not: every run of it would hang"
        exit 1
    fi
    # A runner that is itself a small box (a container started with -m
    # 64m): there even a plain run swaps, so every test takes its turn
    # (swap_lock), lest one read the free swap while another's runs hold some.
    runner_boxed=$(runner_limit_mb)
    [ -z "$runner_boxed" ] || [ "$runner_boxed" -ge 512 ] || swap_lock
}

# ---------------------------------------------------------------- TAP

plan() { echo "1..$1"; }
pass() { n=$((n + 1)); echo "ok $n - $1"; }
# fail NAME [DETAIL...]: on stdout as TAP, and again on stderr, which
# prove shows without -v: a failure in make check or CI says why where it
# is read.
fail() {
    n=$((n + 1)) failures=$((failures + 1))
    failed=$(fail_text "$@")
    printf '%s\n' "$failed"
    printf '%s\n' "$failed" >&2
}
fail_text() {
    echo "not ok $n - $1"
    shift
    # (Every line of each, so that no line of a program's output is read
    # as TAP.)
    [ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/# /'
    # A run the kernel killed: in a very small box on cgroup v2 that can
    # happen, rarely, with swap free (docs/answers.md, answer 3).  Said,
    # never excused: the test still fails.
    [ "${rc:-0}" != 137 ] ||
        echo "# the last run ended with exit 137 (SIGKILL): if swap was free and the box small (16 MB), the box's OOM killer after reclaim found only pages still being written to swap (docs/answers.md, answer 3); run the test again"
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
# bail WHY: the test stops here, and prove says why (TAP's Bail out!).
bail() {
    echo "Bail out! $*"
    exit 1
}
done_testing() { exit $((failures > 0)); }

# Skip the whole file, before its plan.
skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# A box test that cannot run: a skip, or with REQUIRE_BOX=1 a failure.
box_skip_all() {
    if [ "${REQUIRE_BOX:-0}" = 1 ]; then
        echo "1..1"
        echo "not ok 1 - box test could not run (REQUIRE_BOX=1): $1"
        exit 1
    fi
    skip_all "$1"
}

# A box test that cannot run, within a file: a skip, or with REQUIRE_BOX=1 a
# failure.
box_skip() {
    if [ "${REQUIRE_BOX:-0}" = 1 ]; then fail "$1" "box test could not run (REQUIRE_BOX=1): $2"
    else skip "$1" "$2"; fi
}

# ok DESC CMD...: one check, passed if CMD succeeds: test(1), grep, or a
# predicate (those below, or a test's own for what takes more than one
# command, as one_error_line in tests/05).  Run as it is, no eval, so
# that the static checks (tests/10) read every check.  If it fails, the
# failure says the command, what it wrote on stderr (a predicate may say
# there what it found), and the last run's exit status, stdout and stderr.
ok() {
    ok_what=$1
    shift
    if "$@" 2>"$tmp/ok.err"; then
        pass "$ok_what"
        return 0
    fi
    set -- "check: $*"
    [ ! -s "$tmp/ok.err" ] || set -- "$@" "$(cat "$tmp/ok.err")"
    [ -z "${ran-}" ] || set -- "$@" "the last run: exit $rc; stdout:" "$(head -n 20 "$out")" "stderr:" "$(head -n 20 "$err")"
    fail "$ok_what" "$@"
    return 1
}
# Predicates for ok.  The last run (run) ended with exit status 0 and
# nothing on stderr (clean), or on neither stream (silent).
clean() { [ "$rc" -eq 0 ] && [ ! -s "$err" ]; }
silent() { clean && [ ! -s "$out" ]; }
# refused_saying STATUS TEXT: the last run ended with STATUS, nothing on
# stdout, one line on stderr, and that line says TEXT (grep's BRE).
# failed_saying STATUS TEXT: it ended with STATUS, and its stderr says
# TEXT somewhere.
refused_saying() { [ "$rc" -eq "$1" ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$2" "$err"; }
failed_saying() { [ "$rc" -eq "$1" ] && grep -q -- "$2" "$err"; }
# line_is N ERE [FILE]: line N of FILE ($out) matches ERE.  has FILE ERE:
# a line of FILE does.  like STRING ERE: STRING does.  matches STRING
# PATTERN: STRING matches a case pattern.  not CMD: CMD fails.  none CMD:
# CMD prints nothing (wait_for none CMD: until what CMD lists is gone).
line_is() { sed -n "$1p" "${3:-$out}" | grep -qE -- "$2"; }
has() { grep -qE -- "$2" "$1"; }
like() { printf '%s\n' "$1" | grep -qE -- "$2"; }
# shellcheck disable=SC2254 # the pattern is a pattern
matches() { case $1 in $2) return 0 ;; esac; return 1; }
not() { ! "$@"; }
none() { [ -z "$("$@")" ]; }

# is DESC GOT OP WANT: a numeric comparison (-eq, -le, -ge, -gt, ...).
is() {
    if [ -n "$2" ] && test "$2" "$3" "$4" 2>/dev/null; then
        pass "$1"
    else
        fail "$1" "got '$2', want $3 $4"
    fi
}

# ------------------------------------------------------ running ./swap

# run CMD...: stdout in $out, stderr in $err, exit status in $rc.  A
# program (not a function) is ended after $run_max seconds (TEST_RUN_MAX,
# 60): a run that hangs fails, and ends the test, whose next runs would
# hang as well.
run_max=${TEST_RUN_MAX:-60}
run() {
    read -r _r0 _ </proc/uptime
    case $(command -v -- "$1") in
        /*) timeout -k 5 "$run_max" "$@" ;;
        *) "$@" ;;
    esac >"$out" 2>"$err"
    rc=$? ran=1
    [ "$rc" -ne 124 ] || ran_out "$@"
}
# ran_out CMD...: a run that ended with 124, timeout's: if its time ran out,
# a failure, and the test ends.
ran_out() {
    read -r _r1 _ </proc/uptime
    [ $((${_r1%.*} - ${_r0%.*})) -ge "$run_max" ] || return 0
    fail "a run ends within $run_max s" "it did not (TEST_RUN_MAX=$run_max): $*" "stdout:" "$(tail -n 5 "$out")" "stderr:" "$(tail -n 5 "$err")"
    exit 1
}

# show_run: the last run's status and output, as TAP comments: on stdout
# for a verbose log; after a failure, `show_run >&2`, since prove and CI's
# log show a test's stderr and not its stdout.
show_run() { diag "exit $rc; stdout:" "$(cat "$out")" "stderr:" "$(cat "$err")"; }

# field LINE WHAT [FILE]: a number from line 1, 2 or 3 of the three-line
# report (its last three lines, start: and after ..., of FILE, $out by
# default: -v and -m add lines between them); WHAT is rss, swap, major or
# seconds.  Read by report() (scripts/report), as the scripts read it.
field() {
    awk -v n="$1" -v what="$2" "$report_awk"'
        report($0) && R_label ~ /^(start|after)/ {
            L[++k] = what == "rss" ? R_rss : what == "swap" ? R_swap : what == "major" ? R_major : R_seconds
        }
        END { i = (k > 3 ? k - 3 : 0) + n; if (i <= k) print L[i] }' "${3:-$out}"
}

# Is A (seconds with two decimals) greater than B?
seconds_gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# valgrind's memcheck as the tests run it: no debugger files (--vgdb=no:
# with its default, valgrind re-creates a file in $TMPDIR, or /tmp, with
# O_CREAT and no O_EXCL).
# shellcheck disable=SC2034 # for the tests that run valgrind
memcheck_opts='-q --vgdb=no --error-exitcode=99 --leak-check=full'

# ------------------------------------------------ what a test may need

is_root() { [ "$self_uid" -eq 0 ]; }

# swap_lock: this test's turn, among this user's tests, to swap, make
# boxes and read what swap is on, until it ends: it waits for the test
# whose turn it is (flock on this user's state folder, which only this
# user may write), then sweeps what a killed run left.  The tests it
# starts itself share its turn (SWAP_TEST_TURN).  Without flock(1) the
# Makefile runs the tests one at a time, and there is nothing to wait for.
swap_lock() {
    [ -z "$turn" ] && [ -z "${SWAP_TEST_TURN-}" ] || return 0
    command -v flock >/dev/null 2>&1 || return 0
    exec 9<"$state_dir" || return 1
    if ! flock -w "${TEST_TURN_MAX:-1800}" 9; then
        fail "this test's turn within ${TEST_TURN_MAX:-1800} s" "another test of this user's has held it so long"
        exit 1
    fi
    turn=1
    turn_log take
    export SWAP_TEST_TURN=1
    renice -n 0 -p $$ >/dev/null 2>&1
    [ -n "${no_sweep-}" ] || { sh "$box" sweep -q; sweep_users; }
}

# swap_done: this test's turn over before its end, for what it does after
# that needs none: its temporary swapfile (if any) off first, since the
# next test may use whatever swap is on.
swap_done() {
    [ -z "$test_swapfile" ] || { sh "$box" swapoff "$test_swapfile" && test_swapfile=''; }
    [ -z "$turn" ] || { turn_log ends && flock -u 9 && exec 9<&- && turn=''; }
    unset SWAP_TEST_TURN
}
turn_log() { [ -z "${TEST_TURN_LOG-}" ] || echo "$(date +%s.%N) $1 ${0##*/}" >>"$TEST_TURN_LOG"; }

# Swap on, or as root with TEST_SWAPFILE=1 a temporary swapfile that the
# cleanup turns off and deletes.  Swap that was on already is left alone.
# Returns 1, with the reason in $swap_why, when there is none.  Takes this
# test's turn first (swap_lock).
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

# The memory limit the tests themselves run under, in MB (a container
# started with -m, a pod, a slice), as scripts/box reads it; empty if none.
runner_limit_mb() { rl=$(sh "$box" limit 2>/dev/null) && echo $((${rl%% *} / 1048576)); }

# need_room MB: skip the whole file when the runner is itself limited below
# MB (plus room for the shell and the test) -- a plain run would swap.
need_room() {
    lim=$(runner_limit_mb)
    [ -z "$lim" ] || [ "$lim" -ge $(($1 + 32)) ] ||
        skip_all "this runner is itself limited to $lim MB, below the $1 MB a plain run needs"
}

# A way to make a memory box, as scripts/box sees it.
need_box() {
    how=$(sh "$box" how) || box_skip_all "no way to make a memory box: ${how#none: }"
    diag "box: $how"
}

# record NAME VALUE: what a setting was, for scripts/box sweep should this
# test be killed before its cleanup runs (a new file: O_EXCL).
# (scripts/lib.sh's remember, the one writer of records, as swap-test.TAG.NAME.)
# shellcheck disable=SC1090,SC2034 # scripts/box, for remember
record() { (box_library=1 box_self=$box record_as=test && . "$box" && remember "$1" "$2" 2>/dev/null); }

# thp MODE: the machine's transparent huge page mode set to MODE for the
# test's length, recorded first so that a sweep puts it back if the test
# is killed; the cleanup puts it back.  1 if it cannot be set.
thp() {
    f=/sys/kernel/mm/transparent_hugepage/enabled
    was=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$f" 2>/dev/null)
    [ -n "$was" ] && record thp "$was" || return 1
    thp_saved=$was
    echo "$1" >"$f"
}

# make_student [KIND]: a real unprivileged user for this test (in
# $student, its UID in $student_uid), removed with all it made by the
# cleanup, or by a sweep if the test is killed.  KIND "victim": a second
# one, in $victim and $victim_uid.
make_student() {
    kind=${1:-student} name=swap-student-$$
    [ "$kind" = student ] || name=$name$(printf '%s' "$kind" | wc -c)
    # (The record first, exclusively, so that a test killed right after
    # useradd leaves a name the next test's sweep_users finds.)
    echo "$name" | (umask 077 && dd of="$state_dir/test-user.$tag.$kind" conv=excl status=none) 2>/dev/null || return 1
    if ! useradd --no-create-home --home-dir / --shell /bin/sh --user-group "$name" 2>"$tmp/useradd.err"; then
        rm -f "$state_dir/test-user.$tag.$kind"
        return 1
    fi
    users="$users $kind=$name"
    # shellcheck disable=SC2034 # for the test that made it
    case $kind in
        student) student=$name student_uid=$(id -u "$name") ;;
        *) victim=$name victim_uid=$(id -u "$name") ;;
    esac
}
# need_users [victim]: for a test of root's flows against real users: root,
# useradd and runuser there, this test's turn (swap_lock: its users'
# processes would be other users' to the tests that look for them
# meanwhile, and its traps no other test's sweep may meet), a student
# (make_student) and, if asked, a victim; else the whole file skips, and
# says why.
need_users() {
    is_root || skip_all "not root: the runs under test are root's"
    if ! command -v useradd >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
        skip_all "no useradd or runuser, to make an unprivileged user"
    fi
    swap_lock
    # shellcheck disable=SC2119 # a student, not a victim
    make_student || skip_all "cannot make a user: $(cat "$tmp/useradd.err")"
    [ -z "${1-}" ] || make_student victim || skip_all "cannot make a second user: $(cat "$tmp/useradd.err")"
}
# as_student CMD..., as_victim CMD...: CMD as that user, with nothing of
# root's environment but PATH.
# (From /: the test's working folder may be closed to them.)
as_student() { (cd / && exec runuser -u "$student" -- env -i PATH=/usr/bin:/bin HOME=/ "$@"); }
as_victim() { (cd / && exec runuser -u "$victim" -- env -i PATH=/usr/bin:/bin HOME=/ "$@"); }

# keep_gone: of the names on stdin, those whose owner tag (swap-KIND.PID.START
# or the scope swap-box-PID-START) names a process that has ended: what a run
# left, not what another run beside this one (another user's, another
# checkout's) still owns.  Told as scripts/box's sweep tells it.
keep_gone() {
    # shellcheck disable=SC2016 # expanded by that sh, with scripts/box's tag_of and owner_alive
    sh -c 'box_library=1 box_self=$1; . "$1"
        while read -r f; do t=$(tag_of "$f"); [ -n "$t" ] && ! owner_alive "$t" && echo "$f"; done' sh "$box"
}

# rss_lag_mb: how far below the truth a process's own VmRSS may read, in
# whole MB.  The kernel folds a task's page counts into the ones
# /proc/self/status reads only every 64 faults (6.1: SPLIT_RSS_COUNTING,
# check_sync_rss_stat in mm/memory.c; 6.12: per-CPU counters, batch of at
# least 32 pages), so up to 64 pages are not in it yet: nothing at 4 KiB
# (256 KB), 1 MB at 16 KiB, 4 MB at 64 KiB.
rss_lag_mb() { echo $((64 * $(getconf PAGESIZE) / 1048576)); }

# small_box: run_mb and box_mb, a boxed run in the lesson's proportions (a
# box a quarter of the run) at less than its size: 32 MB in 8 MB where
# pages are 4 KiB (8,192 pages, 2,048 in the box); 64 MB in 16 MB with
# larger pages, where the tests' allowances were measured (the arm64 guest,
# 16 KiB; the ppc64el guest, 64 KiB, where 8 MB is 128 pages).
# shellcheck disable=SC2034 # for the tests that source this file
small_box() {
    run_mb=32
    [ "$(getconf PAGESIZE)" -le 4096 ] || run_mb=64
    box_mb=$((run_mb / 4))
}

# asker_out: a folder for what root's flows write for the one who asked
# (lab plot OUT), into $asker_tmp: this test's own folder, or, as root under
# sudo (run_uid is the user who ran it), a folder of that user's, made as
# her in her own lab folder (scripts/box dirs, as her), named with this
# test's tag, so that her next sweep removes it if this test is killed;
# the cleanup removes it as her.  as_asker CMD...: CMD as run_uid.
asker_out() {
    if [ "$run_uid" = "$self_uid" ]; then asker_tmp=''; return 0; fi
    # (Once a test: the cleanup removes the one folder.)
    [ -z "$asker_tmp" ] || return 0
    # shellcheck disable=SC2016 # expanded by that sh
    asker_tmp=$(as_asker sh -c 'd=$(sh "$1" dirs | tail -n 1) && mktemp -d "$d/swap-test.$2.XXXXXX"' sh "$box" "$tag") &&
        [ -n "$asker_tmp" ]
}
as_asker() {
    (cd / && exec setpriv --reuid="$run_uid" --regid="${SUDO_GID:-$run_uid}" --init-groups \
        env -i PATH=/usr/bin:/bin HOME=/ "$@")
}

# ------------------------------------------------ runs that go on meanwhile

# own_kill SIG PID...: each PID signalled only while it is a child of this
# shell (the test's, or the subshell this runs in) that has not ended.  A job that ended on its own may have
# been reaped already (dash reaps any child whenever it waits for one,
# even for a command substitution) and its PID handed to anyone, another
# user's process too.  Told by the shell alone: read is a builtin, so no
# process is started and nothing is reaped between the look and the kill.
own_kill() {
    _ok_sig=$1
    shift
    for _ok_pid in "$@"; do
        running_child "$_ok_pid" && kill "$_ok_sig" "$_ok_pid" 2>/dev/null
    done
    return 0
}
# signal_run SIG PID NAME: PID, a run found a moment before (by pgrep: not
# a child of this shell, which own_kill is for), signalled only if the
# shell itself reads it, just before the kill, as a live process of this
# user's (or of run_uid's) named NAME (or, as root, 9: a program run
# through the gate): it may have ended since, and its PID be another user's.
# (read and kill are builtins: nothing is started between the look and the
# kill.)
signal_run() {
    _sr_name='' _sr_uid='' _sr_state=''
    { while read -r _sr_k _sr_a _sr_b _; do
        case $_sr_k in Name:) _sr_name=$_sr_a ;; State:) _sr_state=$_sr_a ;; Uid:) _sr_uid=$_sr_b ;; esac
    done <"/proc/$2/status"; } 2>/dev/null
    { [ "$_sr_name" = "$3" ] || { is_root && [ "$_sr_name" = 9 ]; }; } &&
        { [ "$_sr_uid" = "$self_uid" ] || [ "$_sr_uid" = "$run_uid" ]; } && [ "$_sr_state" != Z ] && kill "$1" "$2" 2>/dev/null
}
# plant_at PID: a process of the student's (make_student), a sleep, at
# PID, which has just been freed: as root, the next PID the kernel hands
# out is set through ns_last_pid, and setpriv drops to the student; tried
# until no other process took it first.  $sentinel: its PID (a child of
# this shell), or empty when it could not be had.
plant_at() {
    sentinel='' _pa_gid=$(id -g "$student") _pa_i=0
    while [ -z "$sentinel" ] && [ $_pa_i -lt 50 ]; do
        echo $(($1 - 1)) >/proc/sys/kernel/ns_last_pid
        setpriv --reuid="$student_uid" --regid="$_pa_gid" --clear-groups sleep 300 6>&- &
        if [ $! -eq "$1" ]; then sentinel=$!; else own_kill -KILL $!; wait $! 2>/dev/null; fi
        _pa_i=$((_pa_i + 1))
    done
}
running_child() {
    read -r _rc_stat 2>/dev/null <"/proc/$1/stat" || return 1
    # This shell's own PID, a subshell's too ($$ is the parent shell's
    # there): /proc/self, opened by the shell itself.
    read -r _rc_self _ </proc/self/stat || return 1
    # shellcheck disable=SC2086 # state, then parent, after the name
    set -- ${_rc_stat##*) }
    [ "$1" != Z ] && [ "$2" = "$_rc_self" ]
}

# runs_of ARGS: the PIDs of this checkout's ./swap running with exactly
# ARGS, of this user's (of run_uid's: root's flows run it as the user who
# ran sudo), by name or through the gate, and truly it (/proc/PID/exe):
# another user's process may wear the same command line (a student's perl
# can set its $0 to anything).
runs_of() { is_swap "$(pgrep -u "$run_uid" -f "^($swap|$gated_re) $1\$")"; }
# is_swap PIDS: those of PIDS whose program is this checkout's ./swap.
is_swap() { for _is_p in $1; do [ "$(readlink "/proc/$_is_p/exe" 2>/dev/null)" != "$swap" ] || echo "$_is_p"; done; }
# in_cgroup_named PID TEXT...: a line of /proc/PID/cgroup holds one of the
# TEXTs (a box's name), read by the shell.
in_cgroup_named() {
    _icn_p=$1
    shift
    while IFS= read -r _icn_l; do
        for _icn_t do case $_icn_l in *"$_icn_t"*) return 0 ;; esac; done
    done 2>/dev/null <"/proc/$_icn_p/cgroup"
    return 1
}
# heads PID...: those whose parent is not among them, a line each.  A
# shell that has forked shows twice to pgrep -f until the child has become
# what it runs: the child wears the parent's command line meanwhile.
# shellcheck disable=SC2086 # the fields, a word each
heads() {
    _hs=" $* "
    for _h in "$@"; do
        _st=''
        { read -r _st <"/proc/$_h/stat"; } 2>/dev/null || continue
        set -- ${_st##*") "}
        case $_hs in *" ${2-} "*) ;; *) echo "$_h" ;; esac
    done
}

# A run held by swap's own pause (swap --pause; a flow's PAUSE=1): its
# input a FIFO the test keeps open, read-write (no open of it waits), on
# fd 6.  hold [FILE...]: a new one, $held_in, and the FILEs emptied (the
# run's stderr: a prompt there is then its own); start the run with
# <"$held_in" 6>&- (another process that keeps fd 6 keeps the run
# waiting).  go [N]: N lines (1), each lets one more line out.  let_go: the
# end of the input: no more pauses.  The cleanup lets go.
hold() {
    let_go
    for _f do : >"$_f"; done
    read -r _h _ </proc/self/stat
    held_in=$tmp/held.$_h.$held_n
    held_n=$((held_n + 1))
    mkfifo "$held_in" && exec 6<>"$held_in"
}
go() { _g=0; while [ $_g -lt "${1:-1}" ]; do echo; _g=$((_g + 1)); done >&6; }
let_go() { [ -z "$held_in" ] || { exec 6>&-; held_in=''; }; }
# paused FILE [N]: FILE (a run's stderr) holds N prompts (1) or more: the
# run has said its Nth line, and waits.  paused_pid FILE [N]: the PID the
# Nth names.
paused() { [ "$(grep -c '^swap: PID [0-9]* paused: ' "$1" 2>/dev/null)" -ge "${2:-1}" ]; }
paused_pid() { sed -n 's/^swap: PID \([0-9]*\) paused: .*/\1/p' "$1" | sed -n "${2:-1}p"; }
# next_run FILE: the run that paused last (its prompts in FILE) let go a
# line at a time until a run not seen before pauses (a flow's next run),
# its PID in $paused_at; 1 if none does within wait_for's bound.
next_run() {
    _n=$(grep -c '^swap: PID [0-9]* paused: ' "$1")
    _p=$(paused_pid "$1" "$_n")
    while go 1 && wait_for paused "$1" $((_n + 1)); do
        _n=$((_n + 1))
        paused_at=$(paused_pid "$1" "$_n")
        [ "$paused_at" = "$_p" ] || return 0
    done
    return 1
}
# under_other_lru FILE LRU: the 1997 script's rows (PAUSE=1, stderr FILE),
# each paused at its start in turn, until one runs with lru_gen/enabled no
# longer LRU (the script switches only between rows), read into
# $switched; 1 if none within four rows.
under_other_lru() {
    _r=0
    wait_for paused "$1" || return 1
    while { read -r switched </sys/kernel/mm/lru_gen/enabled; } 2>/dev/null && [ "$switched" = "$2" ]; do
        _r=$((_r + 1))
        [ $_r -lt 4 ] && next_run "$1" || return 1
    done
}
# reap PID: a child of this shell waited for once it has ended, within
# wait_for's bound, its exit status in $st.  One that has not ended fails,
# saying what it does, is ended, and ends the test, whose next step waits
# on it.  end_child PID: ended (SIGKILL) and reaped.
reap() {
    if ! wait_for not running_child "$1"; then
        fail "PID $1 ends within $((wait_max / 10)) s" "it has not: $(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null), state $(state_of "$1"), in $(cat "/proc/$1/wchan" 2>/dev/null)"
        own_kill -KILL "$1"
        exit 1
    fi
    wait "$1"
    # shellcheck disable=SC2034 # for the test that reaps
    st=$?
}
end_child() { own_kill -KILL "$1"; reap "$1"; }

# boxes: this user's boxes (cgroups swap-box.TAG, systemd scopes
# swap-box-PID-START.scope).  boxed_run_of TAG: a process runs in the box
# of owner TAG (in any of them when TAG is empty).
boxes() { find /sys/fs/cgroup -type d -name 'swap-box*' -user "$self_uid" 2>/dev/null; }
boxed_run_of() {
    for d in $(boxes); do
        case $d in *"$1"*|*"$(echo "$1" | tr . -)"*) [ -n "$(cat "$d/cgroup.procs" 2>/dev/null)" ] && return 0 ;; esac
    done
    return 1
}
# dead PID: gone, or a zombie.
dead() { case $(state_of "$1") in ''|Z) return 0 ;; esac; return 1; }
# state_of PID: its state letter (R, S, T, Z, ...), empty once it is gone.
# Read by the shell itself: the tests ask it in loops.
state_of() {
    _so=''
    { read -r _so <"/proc/$1/stat"; } 2>/dev/null || return 0
    _so=${_so##*") "}
    printf '%s\n' "${_so%% *}"
}
# wait_for CMD...: until CMD succeeds, at most $wait_max tenths of a second
# of sleep between looks (TEST_WAIT_MAX seconds, 60).  A fiftieth between
# looks for the first fifth of a second (most waits are for a run's first
# line), then a tenth until two seconds, then half a second: a look starts
# a process or two, which an emulated machine pays some 50 ms for.
wait_default=$((${TEST_WAIT_MAX:-60} * 10))
wait_max=$wait_default
wait_for() {
    [ -z "${TEST_WAIT_LOG-}" ] || read -r wf_t0 _ </proc/uptime
    wait_until "$@"
    wf_rc=$?
    [ -z "${TEST_WAIT_LOG-}" ] || wait_log "$@"
    return $wf_rc
}
# wait_log CMD...: how long this wait took (hundredths of a second), the
# test and CMD, a line added to TEST_WAIT_LOG.
wait_log() {
    read -r wf_t1 _ </proc/uptime
    echo "$((${wf_t1%.*}${wf_t1#*.} - ${wf_t0%.*}${wf_t0#*.})) ${0##*/} $*" >>"$TEST_WAIT_LOG"
}
# wait_until CMD...: wait_for's looks, untimed.
wait_until() {
    wf_i=0 wf_short=0
    # (Success is CMD's first success: not asked again, since what it
    # looked at may have moved on by then.)
    until "$@"; do
        [ $wf_i -lt $wait_max ] || return 1
        if [ $wf_short -lt 10 ]; then
            sleep 0.02
            wf_short=$((wf_short + 1))
            wf_i=$((wf_short / 5))
        elif [ $wf_i -lt 20 ]; then sleep 0.1; wf_i=$((wf_i + 1)); else sleep 0.5; wf_i=$((wf_i + 5)); fi
    done
}

# ------------------------------------------------ swap -m's page maps

# strips FILE: how many strips (swap -m) FILE holds.  strip N [FILE]: the
# marks of the N-th.  count TEXT CHARS: how many of CHARS are in TEXT.
strips() { grep -c '^          \[[# .:]*\]$' "$1"; }
strip() { grep '^          \[[# .:]*\]$' "${2:-$out}" | sed -n "$1p" | sed 's/^ *\[//; s/\]$//'; }
count() { printf '%s' "$1" | tr -cd "$2" | wc -c; }

