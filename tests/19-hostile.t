#!/bin/sh
# A shared server with a hostile student.  A real unprivileged user, made
# here and removed at the end, plants every trap that once worked against
# the teacher's root runs, in every shared folder the scripts used to look
# in (/tmp, /var/tmp, its own $TMPDIR): records of dead runs whose content
# is a path, "-delete" or a number out of range; symbolic links to a
# root-only canary file, a hard link to it, a FIFO, a folder where a file
# belongs, a pattern-shaped name; its own box cgroup; and a loop that links
# the names a temporary swapfile would get to a file of its own while a
# root demo runs.  fs.protected_* are 0 for the test's length, so that the
# scripts' own care is what is tested.  Then the root flows run (sweep,
# demo, class, the 1997 script, plot; small runs, since what is checked is
# where they keep things, not what they measure), each under a timeout: the canary,
# the sysctls, root's working folder and the student's files must be
# unchanged, no swap device may belong to anyone but root, and root makes
# nothing in the shared folders.  Last, the same traps put straight into
# root's own folder (as if it had been broken into) are named and left alone.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
is_root || skip_all "not root: the flows under test are root's"
if ! command -v useradd >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
    skip_all "no useradd or runuser, to make an unprivileged user"
fi
# Its turn from the start (swap_lock): its traps include a box cgroup and
# records that no other test's sweep may meet meanwhile.
swap_lock
make_student || skip_all "cannot make a user: $(cat "$tmp/useradd.err")"
plan 28

for p in symlinks regular fifos hardlinks; do
    protected "$p" 0 || diag "fs.protected_$p cannot be set to 0 here: the kernel's own guard stays"
done
protected_now=$(cat /proc/sys/fs/protected_symlinks /proc/sys/fs/protected_regular /proc/sys/fs/protected_fifos /proc/sys/fs/protected_hardlinks | tr '\n' ' ')
diag "student $student (UID $student_uid); fs.protected_symlinks, _regular, _fifos, _hardlinks: $protected_now"

# A root-only file in a folder everyone may pass through (so that a hard
# link to it can be made: on the file system of /var/tmp, and of /tmp where
# that is no tmpfs), and root's working folder.
canary_dir=/var/lib/swap-canary.$tag
mkdir -m 755 "$canary_dir" || skip_all "cannot make $canary_dir"
canary=$canary_dir/canary
head -c 64 /dev/urandom | od -An -tx1 | (umask 077 && cat >"$canary")
cp "$canary" "$tmp/canary.orig"
mkdir "$tmp/cwd" && echo keep >"$tmp/cwd/a" && echo keep >"$tmp/cwd/b"
swappiness=$(cat /proc/sys/vm/swappiness)
lg=/sys/kernel/mm/lru_gen/enabled lru=$(cat "$lg" 2>/dev/null)
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)

# --------------------------------------------------------------- the traps
# plant DIR: every trap in DIR, as the student.  Owners 999999990 and up:
# a PID above pid_max, never alive, so a sweep believes them dead.
sdir=/tmp/swap-student-tmp.$$
as_student mkdir -m 755 "$sdir" "$sdir/mine" || skip_all "the student cannot write /tmp"
as_student ln -s "$canary" "$sdir/mine/cgroup.subtree_control"
# shellcheck disable=SC2016 # expanded by the student's shell
plant='
d=$1 canary=$2 mine=$3 v2=$4
rec() { printf "%s\n" "$2" >"$d/$1"; }
rec swap-box.999999990.1.memory "$mine"
rec swap-box.999999991.1.memory -delete
rec swap-box.999999992.1.memory "${v2:-/sys/fs/cgroup}"
rec swap-box.999999993.1.memory "${v2:-/sys/fs/cgroup}/../../../tmp"
rec swap-cva.999999990.1.swappiness 1
rec swap-cva.999999991.1.swappiness 999999
rec swap-cva.999999990.1.lru_gen 0x0000
rec swap-cva.999999991.1.lru_gen 0x12345
rec swap-test.999999990.1.protected_symlinks 1
mkfifo "$d/swap-cva.999999992.1.swappiness"
mkfifo "$d/swap-box.999999994.1.memory"
ln -s "$canary" "$d/swap-cva.999999993.1.swappiness"
ln -s "$canary" "$d/swap-demo.999999990.1.swapfile"
ln "$canary" "$d/swap-cva.999999994.1.swappiness" 2>/dev/null
ln "$canary" "$d/swap-demo.999999991.1.swapfile" 2>/dev/null
mkdir "$d/swap-cva.999999995.1.swappiness"
ln -s / "$d/swap-plot.999999990.1.XXXXXX"
ln -s "$canary" "$d/swap-cva.999999990.1.file"
: >"$d/swap-demo.1.5.*.swapfile"
'
for d in /tmp /var/tmp "$sdir"; do
    as_student sh -c "$plant" sh "$d" "$canary" "$sdir/mine" "$v2"
done
nplanted=$(find /tmp /var/tmp "$sdir" -maxdepth 1 -user "$student_uid" -name 'swap-*' | wc -l)
hard=$(stat -c %h "$canary")
diag "planted $nplanted traps; the canary has $hard links"
# The student's own box, in a subtree of its own (a delegated one, as
# systemd makes for a user): root's sweep must not take it for its own.
student_box=''
for m in $v1 $v2; do
    if mkdir "$m/swap-box.999999995.1" 2>/dev/null; then
        chown "$student" "$m/swap-box.999999995.1" && student_box=$m/swap-box.999999995.1
        break
    fi
done
# What the student owns, and what it holds, now.
student_files() {
    find /tmp /var/tmp "$sdir" -maxdepth 1 -user "$student_uid" -printf '%y %p %l\n' | sort
    find "$sdir" -type f -exec md5sum {} + | sort
}
# A bait of the student's: were root to make a swapfile through a link to
# it, it would grow and carry mkswap's signature.
# shellcheck disable=SC2016 # expanded by the student's shell
as_student sh -c 'head -c 1048576 /dev/zero >"$1"' sh "$sdir/bait"
bait_sum=$(md5sum <"$sdir/bait")
student_files >"$tmp/student.before"
touch "$tmp/marker"

# ---------------------------------------------------------- the root flows
# flow DESC CMD...: CMD as root, from root's working folder, with the
# student's folder as TMPDIR, bounded in time.  rc 124: it hung.
flow() {
    desc=$1
    shift
    (cd "$tmp/cwd" && TMPDIR=$sdir timeout 300 "$@") >"$out" 2>"$err"
    rc=$?
    if [ "$rc" -eq 124 ]; then fail "$desc: does not hang" "killed after 300 s" "$(cat "$err")"
    else pass "$desc: finishes (exit $rc), no hang"; fi
}

flow "scripts/box sweep" sh "$box" sweep
diag "sweep said: $(cat "$err")"

# The demo makes its temporary swapfile while the student links every name
# such a file could get, for every root shell, every 20 ms.
if [ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ]; then
    for t in "make demo TEMP_SWAP=1 under a racing student" "the demo swapped into root's own file only"; do
        skip "$t" "swap is on already here ($(awk 'NR > 1 { print $1 }' /proc/swaps | tr '\n' ' ')), so the demo would make no swapfile"
    done
else
    # shellcheck disable=SC2016 # expanded by the student's shell
    as_student sh -c '
        while :; do
            for p in $(pgrep -u 0 -x sh); do
                t=$p.$(sed -n "s/.*) //p" /proc/$p/stat 2>/dev/null | awk "{ print \$20 }")
                for d in /tmp /var/tmp /var/lib/swap-lab /run/swap-lab; do
                    [ -e "$d/swap-demo.$t.swapfile" ] || ln -s "$1" "$d/swap-demo.$t.swapfile" 2>/dev/null
                done
            done
            sleep 0.02
        done' sh "$sdir/bait" &
    racer=$!
    # Every swap device seen while the demo runs, with its owner.
    (while :; do awk 'NR > 1 { print $1 }' /proc/swaps | while read -r f; do
        printf '%s %s\n' "$(stat -L -c %u "$f" 2>/dev/null)" "$f"; done; sleep 0.05; done) >"$tmp/swaps.seen" 2>/dev/null &
    watcher=$!
    flow "make demo TEMP_SWAP=1 under a racing student" env TEMP_SWAP=1 BOX=16M SIZE=64M sh "$lab" demo "$swap" 64M
    kill "$watcher"
    wait "$watcher" 2>/dev/null
    pkill -KILL -u "$student_uid"
    wait "$racer" 2>/dev/null
    seen=$(sort -u "$tmp/swaps.seen" | tr '\n' ' ')
    if [ "$rc" -eq 0 ] && grep -q 'after reading it back' "$out" && [ -s "$tmp/swaps.seen" ] &&
        ! awk '$1 != 0' "$tmp/swaps.seen" | grep -q . && ! grep -qv " $work_dir/swap-demo\." "$tmp/swaps.seen"; then
        pass "the demo swapped into root's own file only: $seen"
    else
        fail "the demo swapped into root's own file only" "exit $rc; seen: $seen" "$(cat "$out" "$err")"
    fi
fi
as_student rm -f /tmp/swap-demo.*.*.swapfile /var/tmp/swap-demo.*.*.swapfile 2>/dev/null
# (the planted ones again, which that rm took too)
for d in /tmp /var/tmp; do as_student sh -c "$plant" sh "$d" "$canary" "$sdir/mine" "$v2" 2>/dev/null; done

if ! want_swap; then
    for t in "make class" "cache-vs-anon" "make plot"; do box_skip "$t" "$swap_why"; done
else
    flow "make class N=2" env BOX=16M sh "$lab" class 2 24M
    [ "$rc" -eq 0 ] || show_run
    flow "scripts/cache-vs-anon -c 200" env CVA_REREAD_MAX=2 CVA_BOX=16M CVA_FILE_MB=10 CVA_SIZE=12M sh "$top/scripts/cache-vs-anon" -c 200
    [ "$rc" -eq 0 ] || show_run
    flow "make plot" env BOX=16M sh "$lab" plot "$tmp/cwd/swap.svg" "$swap" -i 8M 24M
    [ "$rc" -eq 0 ] || show_run
fi

# ------------------------------------------------------------ what stayed
if cmp -s "$canary" "$tmp/canary.orig"; then pass "the root-only canary is unchanged"
else fail "the root-only canary is unchanged" "now: $(head -c 100 "$canary")"; fi
is "vm.swappiness is unchanged ($swappiness)" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"
if [ -z "$lru" ]; then skip "lru_gen/enabled is unchanged" "no MGLRU in this kernel ($(uname -r))"
else is "lru_gen/enabled is unchanged ($lru)" "$(cat "$lg")" = "$lru"; fi
got=$(cat /proc/sys/fs/protected_symlinks /proc/sys/fs/protected_regular /proc/sys/fs/protected_fifos /proc/sys/fs/protected_hardlinks | tr '\n' ' ')
is "fs.protected_* are as the test set them ($protected_now)" "$got" = "$protected_now"
got=$(find "$tmp/cwd" -mindepth 1 -printf '%f ')
if [ -f "$tmp/cwd/a" ] && [ -f "$tmp/cwd/b" ]; then pass "root's working folder is intact ($got)"
else fail "root's working folder is intact" "now: $got"; fi
if [ -n "$v2" ] && [ -f "$v2/cgroup.subtree_control" ]; then
    diag "$v2/cgroup.subtree_control: '$(cat "$v2/cgroup.subtree_control")'"
fi
if [ "$(md5sum <"$sdir/bait")" = "$bait_sum" ]; then pass "the student's bait is unchanged: no swapfile was made through its links"
else fail "the student's bait is unchanged" "$(ls -l "$sdir/bait")"; fi
others=$(awk 'NR > 1 { print $1 }' /proc/swaps | while read -r f; do [ "$(stat -L -c %u "$f")" = 0 ] || echo "$f"; done)
is "no swap device is anyone's but root's${others:+: $others}" "${#others}" -eq 0
student_files >"$tmp/student.after"
if cmp -s "$tmp/student.before" "$tmp/student.after"; then
    pass "the student's $nplanted files are untouched"
else
    fail "the student's files are untouched" "$(diff "$tmp/student.before" "$tmp/student.after" | head -n 10)"
fi
if [ -z "$student_box" ]; then skip "the student's own box cgroup is left alone" "no cgroup could be made here"
elif [ -d "$student_box" ]; then pass "the student's own box cgroup ($student_box) is left alone"
else fail "the student's own box cgroup is left alone" "$student_box is gone"; fi
made=$(find /tmp /var/tmp -maxdepth 1 -user 0 -name 'swap-*' -newer "$tmp/marker" 2>/dev/null)
is "root made nothing in /tmp or /var/tmp${made:+: $made}" "${#made}" -eq 0

# Root's folder where the student can reach it: refused, one line.
refused() {
    if [ "$rc" -ne 0 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q "refusing to keep state in $2" "$err"; then
        pass "$1: refused in one line ($(cat "$err"))"
    else
        fail "$1: refused in one line" "exit $rc" "$(cat "$out" "$err")"
    fi
}
run env SWAP_LAB_DIR="$sdir" sh "$box" sweep
refused "SWAP_LAB_DIR in the student's folder" "$sdir"
mkdir -m 755 "$tmp/open"
run env SWAP_LAB_DIR="$tmp/open" sh "$box" dirs
refused "a root folder of mode 755" "$tmp/open"
run env SWAP_LAB_DIR="$tmp/open" TEMP_SWAP=1 sh "$lab" demo "$swap" 16M
if [ "$rc" -ne 0 ] && grep -q "refusing to keep state in $tmp/open" "$err"; then pass "make demo with a folder of mode 755: refused"
else fail "make demo with a folder of mode 755: refused" "exit $rc" "$(cat "$err")"; fi
run env CVA_DIR="$sdir" sh "$top/scripts/cache-vs-anon" 0
refused "CVA_DIR in the student's folder" "$sdir"

# The same traps straight in root's own folder (it cannot happen through
# the folder: as if it had been broken into): a record is obeyed only if
# it holds what it can, and only a regular file is one.
# (Less the records that hold what a real one can: those would be obeyed.)
mkdir -m 700 "$tmp/lab"
sh -c "$plant" sh "$tmp/lab" "$canary" "$sdir/mine" "$v2"
rm -f "$tmp/lab/swap-cva.999999990.1.swappiness" "$tmp/lab/swap-cva.999999990.1.lru_gen" \
    "$tmp/lab/swap-test.999999990.1.protected_symlinks" "$tmp/lab/swap-box.999999992.1.memory"
before=$(find "$tmp/lab" -mindepth 1 -maxdepth 1 | wc -l)
(cd "$tmp/cwd" && exec timeout 60 env SWAP_LAB_DIR="$tmp/lab" sh "$box" sweep) >"$out" 2>"$err"
rc=$?
is "planted in root's own folder: the sweep does not hang" "$rc" -ne 124
odd=$(grep -o 'left alone[^;]*' "$err" | wc -l)
if cmp -s "$canary" "$tmp/canary.orig" && [ "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness" ] &&
    [ -f "$tmp/cwd/a" ] && [ "$(cat /proc/sys/fs/protected_symlinks)" = "${protected_now%% *}" ] &&
    { [ -z "$lru" ] || [ "$(cat "$lg")" = "$lru" ]; }; then
    pass "planted in root's own folder: nothing obeyed (canary, sysctls, working folder as they were)"
else
    fail "planted in root's own folder: nothing obeyed" "$(cat "$err")"
fi
# All but the regular file named as a dead run's swapfile, which is deleted.
kept=$(find "$tmp/lab" -mindepth 1 -maxdepth 1 | wc -l)
is "planted in root's own folder: all but the plain dead swapfile left alone ($kept of $before)" "$kept" -eq $((before - 1))
for w in 'swap-box.999999990.1.memory' 'swap-box.999999991.1.memory' 'swap-cva.999999991.1.swappiness' \
    'swap-cva.999999991.1.lru_gen' 'swap-cva.999999992.1.swappiness (a FIFO)' \
    'swap-cva.999999993.1.swappiness (a symbolic link)' 'swap-demo.999999991.1.swapfile (a file with' \
    'swap-cva.999999995.1.swappiness (a folder)'; do
    # (A hard link only where the canary's file system allowed one.)
    case $w in *'(a file with') [ -e "$tmp/lab/swap-demo.999999991.1.swapfile" ] || continue ;; esac
    grep -qF "$w" "$err" || odd=missing
done
if [ "$odd" != missing ]; then pass "planted in root's own folder: each is named in the sweep's lines"
else fail "planted in root's own folder: each is named in the sweep's lines" "$(cat "$err")"; fi
[ "$hard" -ge 3 ] || diag "no hard links to the canary could be made (fs.protected_hardlinks)"
# A name shaped like a pattern is not a swap device that is on, and turns
# none off.
if swap_is=$(awk 'NR > 1 { print $1; exit }' /proc/swaps) && [ -n "$swap_is" ]; then
    pattern="$work_dir/swap-test.*.swapfile"
    # shellcheck disable=SC2016 # expanded by that sh, with scripts/box's swap_listed
    listed=$(sh -c 'box_library=1; . "$1"; for f in "$2" "$3"; do swap_listed "$f" && echo "$f"; done' sh "$box" "$pattern" "$swap_is")
    run sh "$box" swapoff "$pattern"
    if [ "$listed" = "$swap_is" ] && grep -q "^$swap_is " /proc/swaps; then
        pass "a pattern-shaped name ($pattern) is no swap device, and swapoff of it leaves $swap_is on"
    else
        fail "a pattern-shaped name is no swap device, and swapoff of it leaves $swap_is on" "listed: $listed" "$(cat /proc/swaps)"
    fi
else
    box_skip "a pattern-shaped name is no swap device" "no swap is on"
fi
# A true record of the memory controller a box switched on in the v2
# mount itself (a machine without systemd) is one the sweep obeys.
if [ -n "$v2" ] && [ -f "$v2/cgroup.subtree_control" ]; then
    echo "$v2" >"$tmp/swap-box.1.1.memory"
    # shellcheck disable=SC2016 # expanded by that sh, with scripts/box's record_value
    got=$(sh -c 'box_library=1; . "$1"; record_value "$2"' sh "$box" "$tmp/swap-box.1.1.memory")
    is "a record naming the v2 mount itself ($v2) holds what it can" "$got" = "$v2"
else
    skip "a record naming the v2 mount itself holds what it can" "no cgroup v2 mount here"
fi
# A swapfile goes only in root's own folder, and is used only if it is
# what was made: a swapfile whose mode came out other than 600 (here a
# fallocate that also opens it up) is refused before mkswap.
run sh "$box" swapon "$sdir/swap-x.$tag.swapfile"
if [ "$rc" -ne 0 ] && grep -q "a swapfile goes in $work_dir" "$err" && [ ! -e "$sdir/swap-x.$tag.swapfile" ]; then
    pass "box swapon in the student's folder: refused, nothing made ($(cat "$err"))"
else
    fail "box swapon in the student's folder: refused, nothing made" "exit $rc" "$(cat "$err")"
    swapoff "$sdir/swap-x.$tag.swapfile" 2>/dev/null
fi
sf=$work_dir/swap-test.$tag.odd.swapfile
# shellcheck disable=SC2016 # expanded by that sh: scripts/box, with a fallocate that also opens the file up
run sh -c 'box_library=1; . "$1"; fallocate() { command fallocate "$@" && chmod 644 "$3"; }; swap_on "$2"' sh "$box" "$sf"
if [ "$rc" -ne 0 ] && grep -q "cannot make the swapfile $sf" "$err" && [ ! -e "$sf" ] && ! grep -q "^$sf " /proc/swaps; then
    pass "a swapfile of mode 644 is refused before mkswap, and removed ($(cat "$err"))"
else
    fail "a swapfile of mode 644 is refused before mkswap, and removed" "exit $rc" "$(cat "$err")" "$(cat /proc/swaps)"
fi
[ -z "$student_box" ] || rmdir "$student_box"
rm -rf "$tmp/lab"
done_testing
