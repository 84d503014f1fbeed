#!/bin/sh
# scripts/backends: the boxed run on a swapfile, through zswap and on zram,
# a row each where the kernel has it; each row's pages where it says, with
# the faults the kernel's code says (readahead on the swapfile and through
# zswap, none on zram; no disk I/O through zswap); the machine as found
# after a run, an interrupted one, and one killed in each row with no sweep
# (its guard puts all back within 30 s): the same
# /proc/swaps, no zram device of its own, zswap's switch and compressor,
# the zram module as it was.  A device put on top of its own is caught, and
# so is a device already at the top.  Not root, or a bad argument: one
# line, exit 2.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
be=$top/scripts/backends
want=''

# refused ARGS...: one line on stderr that names WANT ($want), nothing on
# stdout, exit 2.
refused() {
    desc=$1
    shift
    run "$@"
    ok "$desc: one line that names '$want', exit 2 ($(cat "$err"))" refused_saying 2 "$want"
}

# same_state: the machine's state now ($tmp/after) is as before
# ($tmp/before), or both are said on stderr.  drawn_rows: scripts/plot
# draws -s's files, with -l's panel.  zswap_alone: the interrupted run
# ($tmp/int.out) began its zswap row and no other.
# shellcheck disable=SC2317 # called by ok
same_state() {
    cmp -s "$tmp/before" "$tmp/after" && return 0
    printf '%s\n' before: "$(cat "$tmp/before")" after: "$(cat "$tmp/after")" >&2
    return 1
}
# shellcheck disable=SC2317 # called by ok
drawn_rows() {
    (cd "$rows" && sh "$top/scripts/plot" ./*.csv >"$tmp/rows.svg") && grep -q 'the cost of one access' "$tmp/rows.svg"
}
# shellcheck disable=SC2317 # called by ok
zswap_alone() { grep -q '^backend ' "$tmp/int.out" && ! grep -Eq '^(swapfile|zram) ' "$tmp/int.out"; }

if ! is_root; then
    plan 2
    want=root refused "not root" sh "$be"
    want="'-x'" refused "a bad argument" sh "$be" -x
    done_testing
fi
need_box
tests=35
plan "$tests"
# Every run of the script here is small_box's, the lesson's proportions
# at less than its size: each row shows the same readahead, the same route
# of the pages and the same faults per page as 256 MB in 64 MB does (make
# backends itself keeps 256M).
small_box
SIZE=${run_mb}M BOX=${box_mb}M
export SIZE BOX

want="'-x'" refused "a bad argument" sh "$be" -x
want="'swap'" refused "a row it does not have" sh "$be" -y swap
want="SIZE" refused "a bad SIZE" env SIZE=12Q sh "$be" -y
if command -v setpriv >/dev/null 2>&1; then
    want=root refused "as nobody" setpriv --reuid=65534 --regid=65534 --clear-groups sh "$be"
else
    skip "as nobody: refused" "setpriv is not installed"
fi
# (Refused before the script sweeps or changes anything: the turn from here.)
swap_lock

zs=/sys/module/zswap/parameters
# state: what the script may change, as it is: swap devices and their
# priorities, zram devices and their sizes, the zram module, zswap's switch
# and compressor, and its records, folders and boxes: those whose owner has
# gone (keep_gone), not another test's, running beside this one.
state() {
    awk 'NR > 1 { print "swap", $1, $2, $5 }' /proc/swaps
    # (The files read by the shell: state runs in the loops that wait for
    # the machine to come back.)
    for d in /sys/block/zram*; do [ -e "$d" ] && read -r ds <"$d/disksize" && echo "zram ${d##*/} $ds"; done
    [ -d /sys/module/zram ] && echo "zram module loaded"
    [ -f "$zs/enabled" ] && read -r ze <"$zs/enabled" && read -r zc <"$zs/compressor" && echo "zswap $ze $zc"
    ls -d "$state_dir"/swap-backends.* "$work_dir"/swap-backends.* 2>/dev/null
    find /sys/fs/cgroup -type d -name 'swap-box.*' -user 0 2>/dev/null | keep_gone
}
state >"$tmp/before"
as_found() {
    [ -s "$tmp/after" ] || state >"$tmp/after"
    ok "$1: the machine as found ($(tr '\n' ';' <"$tmp/before"))" same_state
    rm -f "$tmp/after"
}

# The rows this kernel can have.
want_rows=swapfile
[ -f "$zs/enabled" ] && want_rows="$want_rows zswap"
if [ -d /sys/class/zram-control ] || modprobe -n zram 2>/dev/null; then want_rows="$want_rows zram"; fi

# Other users' processes here (another user's make check, say): the rows
# would move their pages too, so the script asks for -y, and the test
# gives it only when told to (TEST_BACKENDS=1).
# (-s's folder where the one who asked may make it: under sudo, hers.)
asker_out || fail "a folder for -s, as UID $run_uid" "cannot make one in her lab folder"
rows=${asker_tmp:-$tmp}/rows bcsv=${asker_tmp:-$tmp}/backends.csv
run env CSV="$bcsv" sh "$be" -s "$rows"
yes=''
if [ "$rc" -eq 1 ] && grep -q 'other user' "$err"; then
    if [ "${TEST_BACKENDS:-0}" != 1 ]; then
        why="$(sed 's/^backends: //; s/ Run again.*//' "$err") (TEST_BACKENDS=1 runs it all the same)"
        i=$n
        while [ $i -lt "$tests" ]; do skip "the rows, an interrupted and a killed run" "$why"; i=$((i + 1)); done
        done_testing
    fi
    yes=-y
    run env CSV="$bcsv" sh "$be" $yes -s "$rows"
fi
show_run
is "exit status 0" "$rc" -eq 0
rowre='^(swapfile|zswap|zram) +[a-z0-9-]+ +[0-9]+ MB +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{2} s +[0-9.]+ [mµn]?s +[0-9.]+ [mµn]?s +[0-9]+ +[0-9]+   ([0-9.]+ MB|-)$'
got_rows=$(grep -E "$rowre" "$out" | awk '{ printf "%s%s", sep, $1; sep = " " }')
ok "a row for each backend this kernel has: $got_rows" [ "$got_rows" = "$want_rows" ]
# CSV=FILE, read by Python's csv module: a row per backend of the table,
# in its order, and each row's numbers those the table shows.
# shellcheck disable=SC2317 # called by ok
csv_as_table() {
    grep -E "$rowre" "$out" | awk '{ print $1, $3, $5, $6, $7, $13, $14, $15 }' >"$tmp/table" &&
    python3 - "$bcsv" "$tmp/table" <<'PY'
import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = list(csv.DictReader(f))
table = [l.split() for l in open(sys.argv[2])]
got = [[r['backend'], r['swap_written_mb'], r['read_major_faults'], r['read_minor_faults'],
        '%.2f' % float(r['read_seconds']), r['out_mb'], r['in_mb'], r['ram_for_swapped_mb'] or '-'] for r in rows]
if got != table:
    print('CSV: %s\ntable: %s' % (got, table), file=sys.stderr)
    sys.exit(1)
PY
}
py_ok "CSV=FILE: a row per backend, its numbers the table's, read by Python's csv module" csv_as_table
# col ROW N: field N of that row (3 swap written, 5 read major, 6 read
# minor, 13 out MB, 14 in MB, 15 RAM MB).
col() { grep -E "$rowre" "$out" | awk -v r="$1" -v f="$2" '$1 == r { print $f }'; }
pages_mb=$((1048576 / $(getconf PAGESIZE)))
npages=$((run_mb * pages_mb))
sw=$(col swapfile 3)
is "swapfile: three quarters of $run_mb MB swapped in the $box_mb MB box, $((run_mb * 5 / 8)) MB or more" "$sw" -ge $((run_mb * 5 / 8))
# Readahead (swapin_readahead, mm/swap_state.c): a major fault brings up
# to 8 pages, the rest are minor faults on the swap cache.
is "swapfile: readahead, fewer read major faults than a quarter of the pages ($npages)" "$(col swapfile 5)" -lt $((npages / 4))
is "swapfile: the readahead's pages are minor faults, more than the major ones" "$(col swapfile 6)" -gt "$(col swapfile 5)"
is "swapfile: at least what was swapped went out to the device (MB)" "$(col swapfile 13)" -ge "$sw"
case " $want_rows " in
*" zswap "*)
    zw=$(col zswap 3)
    is "zswap: about as much swapped as on the swapfile, $((run_mb * 5 / 8)) MB or more" "$zw" -ge $((run_mb * 5 / 8))
    is "zswap: readahead still (swap cache), fewer major faults than a quarter of the pages" "$(col zswap 5)" -lt $((npages / 4))
    is "zswap: no device I/O out (MB), the pool took it all" "$(col zswap 13)" -le $((zw / 50))
    is "zswap: its pool in RAM smaller than what it holds (MB)" "$(col zswap 15 | cut -d. -f1)" -lt "$zw"
    # The sampler's peak of the pool: something, or - where the kernel
    # shows no pool size at all.
    pool=$(col zswap 15)
    if [ "$pool" = - ]; then skip "zswap: its pool held pages at its peak" "no Zswap: in /proc/meminfo, no debugfs zswap/pool_total_size"
    else is "zswap: its pool held pages at its peak (tenths of a MB)" "$(echo "$pool" | awk '{ print int($1 * 10) }')" -gt 0; fi
    ;;
*) for t in "swapped" "readahead" "no device I/O" "pool" "pool held pages"; do skip "zswap: $t" "no zswap in this kernel"; done ;;
esac
case " $want_rows " in
*" zram "*)
    # SWP_SYNCHRONOUS_IO: do_swap_page (mm/memory.c) reads the one page,
    # with no swap cache and no readahead.
    is "zram: no readahead, a major fault for nearly every page ($npages)" "$(col zram 5)" -ge $((npages * 9 / 10))
    is "zram: so hardly a minor fault" "$(col zram 6)" -le $((npages / 100))
    is "zram: its memory smaller than what it holds (MB)" "$(col zram 15 | cut -d. -f1)" -lt "$(col zram 3)"
    ;;
*) for t in "no readahead" "no minor" "memory"; do skip "zram: $t" "no zram in this kernel"; done ;;
esac
as_found "after a run"
# -s DIR: each row's records, for scripts/plot; a folder that is there already
# is refused.
saved=$(find "$rows" -mindepth 1 -printf '%f\n' 2>/dev/null | sort | tr '\n' '|')
want_saved=$(for r in $want_rows; do
    c=$(grep -E "$rowre" "$out" | awk -v r="$r" '$1 == r { print $2 }')
    if [ "$c" = - ]; then echo "$r.csv"; else echo "$r ($c).csv"; fi
done | sort | tr '\n' '|')
ok "-s: a file per row ($saved)" [ "$saved" = "$want_saved" ]
ok "-s: the rows' files, which scripts/plot draws with their -l panel" drawn_rows
want="must not exist" refused "-s with a folder that is there already" sh "$be" $yes -s "$rows"

# (This row is going: its device on at the top priority.)
# shellcheck disable=SC2317 # called through held_in_row
on_top() { awk -v d="$1" 'NR > 1 && $1 ~ d && $5 == 32767 { f = 1 } END { exit !f }' /proc/swaps; }
# shellcheck disable=SC2317 # called through held_in_row
zswap_on() { [ "$(cat "$zs/enabled")" = Y ] && on_top swap-backends; }
# shellcheck disable=SC2317 # called through held_in_row
swapfile_on() { on_top swap-backends && { [ ! -f "$zs/enabled" ] || [ "$(cat "$zs/enabled")" = N ]; }; }

# The interrupted and killed runs below are each held in their row by
# their pause (PAUSE=1, its input a FIFO this test holds): while a run
# waits after its first line, the row's device is on and the run in its
# box, at any speed (a row of small_box's size is over in a tenth of a
# second, sooner than a look at /proc/swaps can be sure to land in it).
# held_in_row FILE COND...: FILE (the script's stderr) says its run is
# paused, and the row COND tells is going; why not in $why.
held_in_row() {
    why=''
    _f=$1
    shift
    wait_for paused "$_f" || { why="its run never paused in its box"; return 1; }
    "$@" || { why="its run paused, but not in the row ($* failed): $(tr '\n' ' ' </proc/swaps)"; return 1; }
}

# Interrupted in the zswap row (or the swapfile row without zswap): back.
# That row alone (backends ROW), as each killed run below: the others'
# runs before it would show nothing more.  The script's trap runs once its
# row's run has ended (the shell waits for its foreground command), so the
# held run is let go after the SIGINT.
row_of() { [ -f "$zs/enabled" ] && echo zswap_on || echo "on_top swap-backends"; }
int_row=swapfile
[ ! -f "$zs/enabled" ] || int_row=zswap
# (A job started with & ignores SIGINT in a shell script, as POSIX has it:
# env gives the script the default back, as a terminal's Ctrl-C finds it.)
hold "$tmp/int.out"
env --default-signal=INT PAUSE=1 sh "$be" $yes "$int_row" <"$held_in" >"$tmp/int.out" 2>&1 6>&- &
pid=$!
# shellcheck disable=SC2046 # the condition, a command and its words
if held_in_row "$tmp/int.out" $(row_of); then
    own_kill -INT "$pid"
    let_go
    reap "$pid"
else
    let_go
    end_child "$pid"
    sh "$box" sweep -q
    st="never in the row, $why: $(tr '\n' ' ' <"$tmp/int.out")"
fi
# shellcheck disable=SC2317 # called through wait_for
boxes_left() { boxes | keep_gone; }
wait_max=100 wait_for none boxes_left
is "interrupted: exit status 130" "$st" -eq 130
if [ "$int_row" = swapfile ]; then
    skip "asked for the zswap row alone: no other row ran" "no zswap in this kernel"
else
    ok "asked for the zswap row alone: no other row ran" zswap_alone
fi
as_found "interrupted in the $int_row row"

# Killed (kill -9) in each row while its run is held in its box, and no one
# sweeps: its guard (scripts/box guard) puts it all back within 30 s, the
# run in the box ended (paused, it would never end by itself).  (Only
# root's backends are looked for: another user's process may wear the same
# command line.)
killed() {
    hold "$tmp/kill.out"
    PAUSE=1 sh "$be" $yes "$2" <"$held_in" >"$tmp/kill.out" 2>&1 6>&- &
    pid=$!
    # shellcheck disable=SC2086 # the condition, a command and its words
    if ! held_in_row "$tmp/kill.out" $1; then
        let_go
        end_child "$pid"
        sh "$box" sweep -q
        fail "killed in the $2 row, no sweep" "the $2 row was not caught: $why" "$(cat "$tmp/kill.out")"
        return
    fi
    p=$(paused_pid "$tmp/kill.out")
    end_child "$pid"
    # (Looked at every twentieth of a second, up to 30 s.)
    i=0
    state >"$tmp/after"
    while { ! cmp -s "$tmp/before" "$tmp/after" || pgrep -u 0 -f "^sh $be" >/dev/null || [ -n "$(is_swap "$p")" ]; } && [ $i -lt 600 ]; do
        sleep 0.05
        i=$((i + 1))
        state >"$tmp/after"
    done
    pgrep -a -u 0 -f "^sh $be" >>"$tmp/after"
    is_swap "$p" | sed 's/^/paused run left: /' >>"$tmp/after"
    let_go
    as_found "killed in the $2 row, no sweep: put back within 30 s (in $((i / 20)).$((i % 20 * 5 / 10)) s)"
}
killed swapfile_on swapfile
if [ -f "$zs/enabled" ]; then killed zswap_on zswap; else skip "killed in the zswap row" "no zswap in this kernel"; fi
case " $want_rows " in
*" zram "*) killed "on_top /dev/zram" zram ;;
*) skip "killed in the zram row" "no zram in this kernel" ;;
esac

# A device already at the top priority: refused before anything changes.
test_swapfile=$work_dir/swap-test.$tag.swapfile
if SWAP_PRIORITY=32767 SWAPFILE_SIZE=64M sh "$box" swapon "$test_swapfile" 2>"$tmp/swapon.err"; then
    run sh "$be" $yes
    ok "a device at priority 32767 already: refused ($(cat "$err"))" failed_saying 1 'priority 32767 already'
    sh "$box" swapoff "$test_swapfile"
else
    fail "a device at priority 32767 already: refused" "could not make one: $(cat "$tmp/swapon.err")"
fi
# Broken on purpose: a copy that turns its devices on at priority 1, below
# a device of 100 (another swap the machine has): its rows must say their
# pages went elsewhere, and fail.
if SWAP_PRIORITY=100 SWAPFILE_SIZE=512M sh "$box" swapon "$test_swapfile" 2>"$tmp/swapon.err"; then
    state >"$tmp/before"
    # shellcheck disable=SC2016 # the script's own $top, matched as text
    # shellcheck disable=SC2086 # box_files: the files, a word each
    mkdir "$tmp/m" "$tmp/m/scripts" && cp $box_files "$tmp/m/scripts/" &&
        sed 's/SWAP_PRIORITY=\$top/SWAP_PRIORITY=1/; s/swapon -p \$top/swapon -p 1/' "$be" >"$tmp/m/scripts/backends"
    # (Its ./swap, under sudo a link to a copy of hers: her process opens it.)
    mswap=$(her_file "$swap")
    if [ "$mswap" = "$swap" ]; then cp "$swap" "$tmp/m/swap"; else ln -s "$mswap" "$tmp/m/swap"; fi
    run sh "$tmp/m/scripts/backends" $yes
    ok "broken on purpose (its device below another): caught ($(cat "$err"))" \
        failed_saying 1 'the swapfile row is not what it says: .* the pages went to another device'
    as_found "broken on purpose"
    sh "$box" swapoff "$test_swapfile" && test_swapfile=''
else
    fail "broken on purpose: caught" "could not make a swapfile: $(cat "$tmp/swapon.err")"
fi

# Another user's processes: not without -y.
# shellcheck disable=SC2119 # a student, not a victim
if make_student; then
    # (Its stderr closed: ended by the cleanup's kill -KILL -1, runuser says "Killed".)
    as_student sleep 60 2>/dev/null &
    sleeper=$!
    wait_for pgrep -u "$student" sleep >/dev/null
    run sh "$be"
    ok "other users' processes running: not without -y ($(cat "$err"))" failed_saying 1 'other user.*-y'
    ok "other users' processes running: no row ran" not has "$out" '^swapfile'
    # -s below a folder of hers: she could move it and put her own in
    # its place, so root refuses to write there; under sudo the folder is
    # made as the one who ran it, and the kernel refuses it her folder.
    d=$(as_student mktemp -d /tmp/swap-rows.XXXXXX)
    want="refusing -s"
    [ "$run_uid" = "$self_uid" ] || want="cannot make it (it must not exist yet, in a folder UID $run_uid may write)"
    refused "-s below a folder another user owns ($d)" sh "$be" -y -s "$d/rows"
    own_kill -TERM "$sleeper"
else
    why="cannot make a user: $(cat "$tmp/useradd.err" 2>/dev/null)"
    skip "other users' processes running: not without -y" "$why"
    skip "other users' processes running: no row ran" "$why"
    skip "-s below a folder another user owns: refused" "$why"
fi
done_testing
