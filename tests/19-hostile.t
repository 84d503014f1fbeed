#!/bin/sh
# A shared server with a hostile student.  A real unprivileged user, made
# here and removed at the end, plants every trap that once worked against
# the teacher's root runs: records of dead runs whose content is a path,
# "-delete" or a number out of range; symbolic links to a root-only canary
# file, a hard link to it, a FIFO, a folder where a file belongs, a
# pattern-shaped name; its own box cgroup; a loop that links the names a
# temporary swapfile would get to a file of its own while a root demo
# runs; the fallback folder of another user (a second one, the victim); a
# process dressed as a run of ./swap.  (valgrind's debugger files, which
# a student could race too, are tests/09's: its trace of valgrind fails
# on any open of them in a shared folder, every time; a race here never
# caught it.)  The traps go in /tmp and
# /var/tmp, where the kernel's link protections (fs.protected_*) may guard
# root, and in a folder that the student may write (her group's) but that
# is not sticky, where they never do: there the scripts' own care is what is tested, and
# no setting of the machine is changed (fs.protected_* are sampled every
# 50 ms, and must never be lowered).  Then the root flows run (sweep, demo,
# class, the 1997 script, plot; small runs, since what is checked
# is where they keep things, not what they measure), each under a timeout:
# the canary, the sysctls, root's working folder and the student's files
# must be unchanged, no swap device may belong to anyone but root, and
# root makes nothing in the shared folders.  Last, the same traps put
# straight into root's own folder (as if it had been broken into) are
# named and left alone.  The student's folders and the dead runs' tags
# are random: another user cannot squat them to spoil the test.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_users victim
plan 51

# fs.protected_* as they are, sampled every 50 ms until the end, a line
# each, as prot prints them.  (By one perl, which prove needs anyway: a
# sleep started each 50 ms takes a CPU of its own on an emulated machine.)
prot() {
    for f in symlinks regular fifos hardlinks; do
        v=; { read -r v <"/proc/sys/fs/protected_$f"; } 2>/dev/null; printf '%s ' "$v"
    done
}
protected_now=$(prot)
# shellcheck disable=SC2016 # perl's own variables
perl -e '$| = 1;
    while (1) {
        for my $f (qw(symlinks regular fifos hardlinks)) {
            my $v = "";
            if (open(my $h, "<", "/proc/sys/fs/protected_$f")) { $v = <$h> // ""; chomp $v; close $h }
            print "$v ";
        }
        print "\n";
        select(undef, undef, undef, 0.05);
    }' >"$tmp/protected.seen" 2>/dev/null &
sampler=$!
diag "student $student (UID $student_uid), victim $victim (UID $victim_uid); fs.protected_symlinks, _regular, _fifos, _hardlinks: $protected_now"

# A root-only file in a folder everyone may pass through, and beside it a
# folder the student may write that is not sticky: the kernel's link
# protections never apply there.  And root's working folder.
canary_dir=/var/lib/swap-canary.$tag
mkdir -m 755 "$canary_dir" || bail "cannot make $canary_dir"
canary=$canary_dir/canary
head -c 64 /dev/urandom | od -An -tx1 | (umask 077 && cat >"$canary")
cp "$canary" "$tmp/canary.orig"
# A hard link cannot cross file systems, and /tmp is often one of its own
# (a tmpfs, a container's): each shared folder's file system gets a copy
# of the canary, in a root-only folder made there with a name nobody can
# guess; removed by the cleanup, or by a sweep (scripts/box's remove_student).
canaries=$canary
for d in /tmp /var/tmp "$tmp"; do
    dev=$(stat -c %d "$d")
    for c in $canaries; do [ "$(stat -c %d "$c")" != "$dev" ] || continue 2; done
    { c=$(mktemp -d "$d/swap-canary.$tag.XXXXXX") && (umask 077 && cp "$tmp/canary.orig" "$c/canary"); } ||
        bail "cannot make a canary on the file system of $d"
    canaries="$canaries $c/canary"
done
# canary_on DIR: the canary on DIR's file system.
canary_on() {
    for c in $canaries; do [ "$(stat -c %d "$c")" != "$(stat -c %d "$1")" ] || { echo "$c"; return 0; }; done
    return 1
}
# canaries_same: every canary as it was made.
# shellcheck disable=SC2317 # called by ok, and by the predicates below
canaries_same() {
    for c in $canaries; do cmp -s "$c" "$tmp/canary.orig" || return 1; done
}
# linked: the find test for a name that is a canary.
linked() { for c in $canaries; do printf ' -o -samefile %s' "$c"; done; }
# The open folder: root's and the student's group's, mode 770, not sticky.
# Any other user of the machine can neither plant there nor fail this
# suite by removing what the test put there.
open=$canary_dir/open
{ mkdir -m 770 "$open" && chgrp "$student" "$open"; } || bail "cannot make $open"
mkdir "$tmp/cwd" && echo keep >"$tmp/cwd/a" && echo keep >"$tmp/cwd/b"
swappiness=$(cat /proc/sys/vm/swappiness)
lg=/sys/kernel/mm/lru_gen/enabled lru=$(cat "$lg" 2>/dev/null)
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)

# --------------------------------------------------------------- the traps
# The student's own folder, made by the student with a name nobody can
# guess.  Dead runs' tags: random PIDs above any pid_max (2^22), never
# alive, so that a sweep believes them dead, and nobody can squat them.
{ sdir=$(as_student mktemp -d /tmp/swap-student.XXXXXX) && [ -d "$sdir" ]; } || bail "the student cannot make a folder in /tmp"
{ as_student chmod 755 "$sdir" && as_student mkdir "$sdir/mine"; } || bail "the student cannot write in $sdir"
as_student ln -s "$canary" "$sdir/mine/cgroup.subtree_control" || bail "the student cannot make a link in $sdir/mine"
# shellcheck disable=SC2046 # the numbers, a word each
set -- $(od -An -N40 -tu4 /dev/urandom | awk '{ for (i = 1; i <= NF; i++) printf "%.0f\n", 1000000000 + $i % 3000000000 }')
d0=$1 d1=$2 d2=$3 d3=$4 d4=$5 d5=$6 d6=$7 d7=$8
# plant DIR: every trap in DIR, as the student; any that cannot be made
# fails the test (with set -e, the first one that fails).
# shellcheck disable=SC2016 # expanded by the student's shell
plant='
set -e
d=$1 canary=$2 mine=$3 v2=$4 d0=$5 d1=$6 d2=$7 d3=$8 d4=$9 d5=${10} d6=${11} d7=${12}
rec() { printf "%s\n" "$2" >"$d/$1"; }
rec swap-box.$d0.1.memory "$mine"
rec swap-box.$d1.1.memory -delete
rec swap-box.$d2.1.memory "${v2:-/sys/fs/cgroup}"
rec swap-box.$d3.1.memory "${v2:-/sys/fs/cgroup}/../../../tmp"
rec swap-cva.$d0.1.swappiness 1
rec swap-cva.$d1.1.swappiness 999999
rec swap-cva.$d0.1.lru_gen 0x0000
rec swap-cva.$d1.1.lru_gen 0x12345
rec swap-test.$d0.1.thp always
mkfifo "$d/swap-cva.$d2.1.swappiness"
mkfifo "$d/swap-box.$d4.1.memory"
ln -s "$canary" "$d/swap-cva.$d3.1.swappiness"
ln -s "$canary" "$d/swap-demo.$d0.1.swapfile"
mkdir "$d/swap-cva.$d5.1.swappiness"
ln -s / "$d/swap-plot.$d0.1.XXXXXX"
ln -s "$canary" "$d/swap-cva.$d0.1.file"
: >"$d/swap-demo.$d7.1.*.swapfile"
'
# hard DIR: the hard links to the canary, made by root for the student
# (fs.protected_hardlinks, where it is 1, keeps the student from making
# them, and is not lowered): a name the student controls, root's inode.
hard() { c=$(canary_on "$1") && ln "$c" "$1/swap-cva.$d4.1.swappiness" && ln "$c" "$1/swap-demo.$d1.1.swapfile"; }
planted=0
for d in /tmp /var/tmp "$sdir" "$open"; do
    if as_student sh -c "$plant" sh "$d" "$canary" "$sdir/mine" "$v2" "$d0" "$d1" "$d2" "$d3" "$d4" "$d5" "$d6" "$d7" 2>"$tmp/plant.err" && hard "$d" 2>>"$tmp/plant.err"; then
        planted=$((planted + 1))
    else
        diag "planting in $d failed: $(cat "$tmp/plant.err")"
    fi
done
# shellcheck disable=SC2046 # the canaries, a word each
nplanted=$(find /tmp /var/tmp "$sdir" "$open" -maxdepth 1 \( -user "$student_uid" $(linked) \) -name 'swap-*' | wc -l)
hard_links=$(for c in $canaries; do stat -c %h "$c"; done | awk '{ n += $1 - 1 } END { print n }')
is "every trap planted in /tmp, /var/tmp, the student's folder and the open folder ($nplanted traps; the canary has $hard_links hard links)" "$planted" -eq 4
# The student's own box, in a subtree of its own (a delegated one, as
# systemd makes for a user): root's sweep must not take it for its own.
student_box=''
for m in $v1 $v2; do
    if mkdir "$m/swap-box.$d6.1" 2>/dev/null; then
        chown "$student" "$m/swap-box.$d6.1" && student_box=$m/swap-box.$d6.1
        break
    fi
done
# What the student owns, and what it holds, now.
student_files() {
    # shellcheck disable=SC2046 # the canaries, a word each
    find /tmp /var/tmp "$sdir" "$open" -maxdepth 1 \( -user "$student_uid" $(linked) \) -printf '%y %p %l\n' | sort
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
# flow DESC CMD...: CMD as root, from root's working folder, with the open
# folder as TMPDIR, bounded in time.  rc 124: it hung.
flow() {
    desc=$1
    shift
    (cd "$tmp/cwd" && TMPDIR=$open timeout 300 "$@") >"$out" 2>"$err"
    rc=$?
    ok "$desc: finishes (exit $rc), no hang" [ "$rc" -ne 124 ]
}

# (Small runs in small boxes, small_box's: what is checked is where the
# flows keep their files, not what the runs measure.)
small_box
flow "scripts/box sweep" sh "$box" sweep
diag "sweep said: $(cat "$err")"

# The demo makes its temporary swapfile while the student links every name
# such a file could get, for every root shell, every 20 ms.  (The student's
# loops end in her own kill -KILL -1; runuser would say "Killed" on stderr.)
# Her loops are perl, which prove needs anyway, reading /proc as pgrep
# does: a shell's loop starts a process or more a name, and a racer that
# forks takes more of the CPUs from the run it races than it links.
if [ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ]; then
    for t in "make demo TEMP_SWAP=1 under a racing student" "the demo swapped into root's own file only"; do
        skip "$t" "swap is on already here ($(awk 'NR > 1 { print $1 }' /proc/swaps | tr '\n' ' ')), so the demo would make no swapfile"
    done
elif ! how=$(sh "$box" how); then
    # (Its swapfile is made for the boxed run, and looked at while that run
    # is held in its box.)
    for t in "make demo TEMP_SWAP=1 under a racing student" "the demo swapped into root's own file only"; do
        box_skip "$t" "no way to make a memory box: ${how#none: }"
    done
else
    # A root shell's tag, PID.START (the 22nd field of /proc/PID/stat).
    # shellcheck disable=SC2016 # perl's own variables
    as_student perl -e 'my ($bait, @dirs) = @ARGV;
        while (1) {
            opendir(my $proc, "/proc") or die "/proc: $!\n";
            for my $p (grep { /^[0-9]+$/ } readdir $proc) {
                my @st = stat "/proc/$p";
                next unless @st && $st[4] == 0;
                open(my $f, "<", "/proc/$p/stat") or next;
                my $line = <$f> // ""; close $f;
                next unless $line =~ /^[0-9]+ \((.*)\) (.*)$/s && $1 eq "sh";
                my $tag = "$p." . (split / /, $2)[19];
                for my $d (@dirs) {
                    my $n = "$d/swap-demo.$tag.swapfile";
                    -e $n or -l $n or symlink $bait, $n;
                }
            }
            closedir $proc;
            select(undef, undef, undef, 0.02);
        }' "$sdir/bait" /tmp /var/tmp /var/lib/swap-lab /run/swap-lab "$open" 2>/dev/null &
    racer=$!
    # swap_owners: every swap device on, with its owner.  (A device whose
    # file is gone by the time it is looked at is being turned off and
    # removed: nobody's to name.)  Looked at every 50 ms while the demo
    # runs, and once where it is sure to have its swapfile on: while its
    # boxed run waits at its first line (swap --pause, its input held here).
    swap_owners() {
        awk 'NR > 1 { print $1 }' /proc/swaps | while read -r f; do
            u=$(stat -L -c %u "$f" 2>/dev/null) && printf '%s %s\n' "$u" "$f"
        done
    }
    (while :; do swap_owners; sleep 0.05; done) >"$tmp/swaps.seen" 2>/dev/null &
    watcher=$!
    hold "$out" "$err"
    (cd "$tmp/cwd" && TMPDIR=$open exec env TEMP_SWAP=1 BOX="${box_mb}M" sh "$lab" demo "$swap" --pause "${run_mb}M") \
        <"$held_in" >"$out" 2>"$err" 6>&- &
    demo=$!
    # (Its plain run's three pauses, then the boxed run's first.)
    go 3
    ! wait_for paused "$err" 4 || swap_owners >"$tmp/swaps.held"
    let_go
    reap "$demo"
    rc=${st:-124}
    ok "make demo TEMP_SWAP=1 under a racing student: finishes (exit $rc), no hang" [ "$rc" -ne 124 ]
    own_kill -TERM "$watcher"
    reap "$watcher"
    runuser -u "$student" -- kill -KILL -1 2>/dev/null
    reap "$racer" 2>/dev/null
    touch "$tmp/swaps.held"
    seen=$(sort -u "$tmp/swaps.held" "$tmp/swaps.seen" | tr '\n' ' ')
    # shellcheck disable=SC2317 # called by ok
    roots_own_only() {
        [ "$rc" -eq 0 ] && grep -q 'after reading it back' "$out" && [ -s "$tmp/swaps.held" ] &&
            ! awk '$1 != 0' "$tmp/swaps.held" "$tmp/swaps.seen" | grep -q . &&
            ! cat "$tmp/swaps.held" "$tmp/swaps.seen" | grep -qv " $work_dir/swap-demo\."
    }
    ok "the demo swapped into root's own file only: $seen" roots_own_only
fi
# (The racer's own links, to its bait, go; the planted traps stay.)
as_student find /tmp /var/tmp "$open" -maxdepth 1 -name 'swap-demo.*.swapfile' -lname "$sdir/bait" -delete 2>/dev/null

if ! want_swap; then
    for t in "make class" "cache-vs-anon" "make plot"; do box_skip "$t" "$swap_why"; done
else
    flow "make class N=2" env BOX="${box_mb}M" sh "$lab" class 2 "$((2 * box_mb))M"
    [ "$rc" -eq 0 ] || show_run >&2
    flow "scripts/cache-vs-anon -c 200" env CVA_REREAD_MAX=2 CVA_BOX=16M CVA_FILE_MB=10 CVA_SIZE=12M sh "$top/scripts/cache-vs-anon" -c 200
    [ "$rc" -eq 0 ] || show_run >&2
    flow "make plot" env BOX="${box_mb}M" sh "$lab" plot "$tmp/cwd/swap.svg" "$swap" -i "${box_mb}M" "$((2 * box_mb))M"
    [ "$rc" -eq 0 ] || show_run >&2
fi

# A process of the student's wearing a run's command line: the tests'
# own count of runs (runs_of) does not see it; a plain pgrep -f would.
# shellcheck disable=SC2016 # expanded by perl
as_student perl -e '$0 = $ARGV[0]; sleep 60' "$swap 256M" 2>/dev/null &
fake=$!
# shellcheck disable=SC2317 # called through wait_for
faked() { fake_pid=$(pgrep -u "$student_uid" -f "^$swap 256M\$"); }
wait_for faked
# (Root's own runs of 256M, another test's, may be there too.)
# shellcheck disable=SC2317 # called by ok
not_ours() { [ -n "$fake_pid" ] && pgrep -f "^$swap 256M\$" | grep -qx "$fake_pid" && ! runs_of 256M | grep -qx "$fake_pid"; }
ok "a student's process named '$swap 256M' (PID $fake_pid) is no run of the tests' (runs_of)" not_ours
runuser -u "$student" -- kill -KILL -1 2>/dev/null
reap "$fake" 2>/dev/null

# ------------------------------------------------------------ what stayed
ok "the root-only canary is unchanged ($(echo "$canaries" | wc -w) file systems)" canaries_same
is "vm.swappiness is unchanged ($swappiness)" "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness"
if [ -z "$lru" ]; then skip "lru_gen/enabled is unchanged" "no MGLRU in this kernel ($(uname -r))"
else is "lru_gen/enabled is unchanged ($lru)" "$(cat "$lg")" = "$lru"; fi
got=$(find "$tmp/cwd" -mindepth 1 -printf '%f ')
ok "root's working folder is intact ($got): a" [ -f "$tmp/cwd/a" ]
ok "root's working folder is intact: b" [ -f "$tmp/cwd/b" ]
if [ -n "$v2" ] && [ -f "$v2/cgroup.subtree_control" ]; then
    diag "$v2/cgroup.subtree_control: '$(cat "$v2/cgroup.subtree_control")'"
fi
ok "the student's bait is unchanged: no swapfile was made through its links" [ "$(md5sum <"$sdir/bait")" = "$bait_sum" ]
others=$(awk 'NR > 1 { print $1 }' /proc/swaps | while read -r f; do [ "$(stat -L -c %u "$f")" = 0 ] || echo "$f"; done)
ok "no swap device is anyone's but root's" [ -z "$others" ]
student_files >"$tmp/student.after"
ok "the student's $nplanted files are untouched" diff "$tmp/student.before" "$tmp/student.after"
if [ -z "$student_box" ]; then skip "the student's own box cgroup is left alone" "no cgroup could be made here"
else ok "the student's own box cgroup ($student_box) is left alone" [ -d "$student_box" ]; fi
made=$(find /tmp /var/tmp /dev/shm "$open" -maxdepth 1 -user 0 \( -name 'swap-*' -o -name 'vgdb-*' -o -name 'valgrind_*' \) -newer "$tmp/marker" 2>/dev/null)
ok "root made nothing in /tmp, /var/tmp, /dev/shm or the open folder" [ -z "$made" ]

# ------------------------------------------------ folders given by variable
# Root's folder where the student can reach it: refused, one line.
refused() { ok "$1: refused in one line ($(cat "$err"))" refused_keeping "$2"; }
# shellcheck disable=SC2317 # called by ok
refused_keeping() { [ "$rc" -ne 0 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q "refusing to keep state in $1" "$err"; }
run env SWAP_LAB_DIR="$sdir" sh "$box" sweep
refused "SWAP_LAB_DIR in the student's folder" "$sdir"
mkdir -m 755 "$tmp/o755"
run env SWAP_LAB_DIR="$tmp/o755" sh "$box" dirs
refused "a root folder of mode 755" "$tmp/o755"
run env SWAP_LAB_DIR="$tmp/o755" TEMP_SWAP=1 sh "$lab" demo "$swap" 16M
# shellcheck disable=SC2317 # called by ok
demo_refused() { [ "$rc" -ne 0 ] && grep -q "refusing to keep state in $tmp/o755" "$err"; }
ok "make demo with a folder of mode 755: refused" demo_refused
run env CVA_DIR="$sdir" sh "$top/scripts/cache-vs-anon" 0
refused "CVA_DIR in the student's folder" "$sdir"
# Root's own folder of mode 700, below one the student owns: she could
# rename it away and put hers in its place.  Below a folder another user
# may write (not sticky), and through a symbolic link: the same.
# (Each of them a folder that would pass if only the folder itself were
# checked: root's, mode 700.)
mkdir -m 700 "$sdir/mine/lab" "$open/lab" "$tmp/ok"
ln -s "$tmp" "$canary_dir/link"
for d in "$sdir/mine/lab" "$open/lab" "$canary_dir/link/ok" "$tmp/cwd/../ok"; do
    run env SWAP_LAB_DIR="$d" sh "$box" dirs
    refused "SWAP_LAB_DIR=$d, root's, mode 700, but not every folder above it" "$d"
done
run env CVA_DIR="$open/lab" sh "$top/scripts/cache-vs-anon" 0
refused "CVA_DIR=$open/lab, below a folder another user may write" "$open/lab"
run env SWAP_LAB_DIR="$tmp/ok" sh "$box" dirs
ok "SWAP_LAB_DIR=$tmp/ok, root's all the way up: used" [ "$rc:$(cat "$out")" = "0:$(printf '%s\n%s' "$tmp/ok" "$tmp/ok")" ]
# Root's own two folders, state and work (/run/swap-lab, /var/lib/swap-lab),
# are looked at together (box_dirs, one stat): a fault in either is found,
# the second as the first.  box_dirs itself, with these two as root's.
# shellcheck disable=SC2016,SC2317 # expanded by that sh, with scripts/box's box_dirs; called by run
dirs_of() { sh -c 'box_library=1 box_self=$1; . "$1"; state_dir=$2 work_dir=$3; box_dirs && echo "$TMPDIR"' sh "$box" "$1" "$2"; }
for d in "$tmp/o755" "$sdir/mine/lab" "$open/lab"; do
    run dirs_of "$tmp/ok" "$d"
    refused "root's work folder $d (its state folder sound)" "$d"
    run dirs_of "$d" "$tmp/ok"
    refused "root's state folder $d (its work folder sound)" "$d"
done
mkdir -m 700 "$tmp/ok2"
run dirs_of "$tmp/ok" "$tmp/ok2"
ok "root's two folders, both sound: used, the work folder as TMPDIR" [ "$rc:$(cat "$out")" = "0:$tmp/ok2" ]

# -------------------------------------------------- no user blocks another
# The student makes the victim's fallback folder, /tmp/swap-lab-UID, and
# one of the names it would fall back to next; the victim (no login
# session: no XDG_RUNTIME_DIR) still runs ./swap, the demo, a test and the
# sweep, in a folder of its own that the student cannot touch.
squat=/tmp/swap-lab-$victim_uid
as_student mkdir -m 700 "$squat" "$squat.AAAAAA" || fail "the student squats $squat" "cannot make it"
# The victim's own copy of what it runs, readable by all (the checkout may
# lie in a folder closed to other users).
co=$canary_dir/co
# shellcheck disable=SC2086 # box_files: the files, a word each
{ mkdir -p "$co/scripts" "$co/tests" && cp "$swap" "$co/" && cp $box_files "$lab" "$co/scripts/" &&
    cp -R "$top/tests/lib.sh" "$top/tests/lib" "$top/tests/census.sh" "$top/tests/02-plain.t" "$co/tests/" && chmod -R a+rX "$co"; } ||
    bail "cannot copy the lab to $co for the victim"
as_victim sh "$co/scripts/box" dirs >"$out" 2>"$err"
rc=$?
vdir=$(head -n 1 "$out")
case $vdir in
"$squat".??????)
    if [ "$rc" -eq 0 ] && [ "$vdir" != "$squat.AAAAAA" ] && [ "$(stat -c '%U %a' "$vdir")" = "$victim 700" ]; then
        pass "the victim's folder, with $squat squatted: $vdir, its own, mode 700 ($(cat "$err"))"
    else
        fail "the victim's folder, with $squat squatted" "exit $rc" "$(cat "$out" "$err")" "$(ls -ld "$vdir")"
    fi ;;
*) fail "the victim's folder, with $squat squatted" "exit $rc" "$(cat "$out" "$err")" ;;
esac
as_victim sh "$co/scripts/box" sweep >"$out" 2>"$err"
is "the victim's sweep works ($(cat "$err"))" "$?" -eq 0
as_victim timeout -k 5 "$run_max" sh "$co/scripts/lab" demo "$co/swap" 16M >"$out" 2>"$err"
# shellcheck disable=SC2317 # called by ok
ran_plainly() { grep -q '^after reading it back:' "$out" && ! grep -q refusing "$err"; }
ok "the victim's make demo runs ./swap plainly ($(grep -c . "$out") lines; then: $(head -n 1 "$err"))" ran_plainly
as_victim sh "$co/tests/02-plain.t" >"$out" 2>"$err"
rc=$?
ran=1
ok "the victim's tests/02-plain.t passes ($(grep -c '^ok' "$out") ok)" [ "$rc:$(grep -c '^not ok' "$out")" = 0:0 ]
ok "the squatter's folder is left as it was, the victim's stays the victim's" \
    [ "$(stat -c %U "$squat"):$(stat -c %U "$vdir")" = "$student:$victim" ]

# ------------------------------------------------------------ the sweep
# The same traps straight in root's own folder (it cannot happen through
# the folder: as if it had been broken into): a record is obeyed only if
# it holds what it can, and only a regular file is one.
# (Less the records that hold what a real one can: those would be obeyed.)
mkdir -m 700 "$tmp/lab"
{ sh -c "$plant" sh "$tmp/lab" "$canary" "$sdir/mine" "$v2" "$d0" "$d1" "$d2" "$d3" "$d4" "$d5" "$d6" "$d7" && hard "$tmp/lab"; } ||
    fail "the traps planted in root's own folder" "$(ls -l "$tmp/lab")"
rm -f "$tmp/lab/swap-cva.$d0.1.swappiness" "$tmp/lab/swap-cva.$d0.1.lru_gen" \
    "$tmp/lab/swap-test.$d0.1.thp" "$tmp/lab/swap-box.$d2.1.memory"
before=$(find "$tmp/lab" -mindepth 1 -maxdepth 1 | wc -l)
(cd "$tmp/cwd" && exec timeout 60 env SWAP_LAB_DIR="$tmp/lab" sh "$box" sweep) >"$out" 2>"$err"
rc=$?
is "planted in root's own folder: the sweep does not hang" "$rc" -ne 124
odd=$(grep -o 'left alone[^;]*' "$err" | wc -l)
# shellcheck disable=SC2317 # called by ok
nothing_obeyed() {
    canaries_same && [ "$(cat /proc/sys/vm/swappiness)" -eq "$swappiness" ] &&
        [ -f "$tmp/cwd/a" ] && [ "$(prot)" = "$protected_now" ] &&
        { [ -z "$lru" ] || [ "$(cat "$lg")" = "$lru" ]; }
}
ok "planted in root's own folder: nothing obeyed (canary, sysctls, working folder as they were)" nothing_obeyed
# All but the regular file named as a dead run's swapfile, which is deleted.
kept=$(find "$tmp/lab" -mindepth 1 -maxdepth 1 | wc -l)
is "planted in root's own folder: all but the plain dead swapfile left alone ($kept of $before)" "$kept" -eq $((before - 1))
for w in "swap-box.$d0.1.memory" "swap-box.$d1.1.memory" "swap-cva.$d1.1.swappiness" \
    "swap-cva.$d1.1.lru_gen" "swap-cva.$d2.1.swappiness (a FIFO)" \
    "swap-cva.$d3.1.swappiness (a symbolic link)" "swap-demo.$d1.1.swapfile (a file with" \
    "swap-cva.$d4.1.swappiness (a file with" "swap-cva.$d5.1.swappiness (a folder)"; do
    grep -qF "$w" "$err" || odd=missing
done
ok "planted in root's own folder: each is named in the sweep's lines" [ "$odd" != missing ]
# A name shaped like a pattern is not a swap device that is on, and turns
# none off.
if swap_is=$(awk 'NR > 1 { print $1; exit }' /proc/swaps) && [ -n "$swap_is" ]; then
    pattern="$work_dir/swap-test.*.swapfile"
    # shellcheck disable=SC2016 # expanded by that sh, with scripts/box's swap_listed
    listed=$(sh -c 'box_library=1 box_self=$1; . "$1"; for f in "$2" "$3"; do swap_listed "$f" && echo "$f"; done' sh "$box" "$pattern" "$swap_is")
    run sh "$box" swapoff "$pattern"
    ok "a pattern-shaped name ($pattern) is no swap device ($listed)" [ "$listed" = "$swap_is" ]
    ok "and swapoff of it leaves $swap_is on" grep -q "^$swap_is " /proc/swaps
else
    box_skip "a pattern-shaped name is no swap device" "no swap is on"
    box_skip "and swapoff of it leaves the swap device on" "no swap is on"
fi
# A true record of the memory controller a box switched on in the v2
# mount itself (a machine without systemd) is one the sweep obeys.
if [ -n "$v2" ] && [ -f "$v2/cgroup.subtree_control" ]; then
    echo "$v2" >"$tmp/swap-box.1.1.memory"
    # shellcheck disable=SC2016 # expanded by that sh, with scripts/box's record_value
    got=$(sh -c 'box_library=1 box_self=$1; . "$1"; record_value "$2"' sh "$box" "$tmp/swap-box.1.1.memory")
    is "a record naming the v2 mount itself ($v2) holds what it can" "$got" = "$v2"
else
    skip "a record naming the v2 mount itself holds what it can" "no cgroup v2 mount here"
fi

# ------------------------------------------------------------ swapfiles
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
run sh -c 'box_library=1 box_self=$1; . "$1"; fallocate() { command fallocate "$@" && chmod 644 "$3"; }; box_swapon "$2"' sh "$box" "$sf"
# shellcheck disable=SC2317 # called by ok
refused_removed() { [ "$rc" -ne 0 ] && grep -q "cannot make the swapfile $sf" "$err" && [ ! -e "$sf" ] && ! grep -q "^$sf " /proc/swaps; }
ok "a swapfile of mode 644 is refused before mkswap, and removed ($(cat "$err"))" refused_removed
# A swapfile whose swapoff fails (a student can fill swap with her own
# pages so that root's have nowhere to go) is still swap: kept and named,
# never deleted while on.  (swapoff made to fail here; then the real one.)
if [ "${TEST_SWAPFILE:-0}" != 1 ]; then
    skip "a swapfile whose swapoff fails is kept and named" "TEST_SWAPFILE=1 lets the tests make a swapfile"
else
    sf=$work_dir/swap-test.$tag.off.swapfile
    if SWAPFILE_SIZE=16M sh "$box" swapon "$sf" 2>"$err"; then
        # shellcheck disable=SC2016 # expanded by that sh: scripts/box, with a swapoff that fails
        run sh -c 'box_library=1 box_self=$1; . "$1"; swapoff() { echo "swapoff: $1: Cannot allocate memory" >&2; return 1; }; box_swapoff "$2"' sh "$box" "$sf"
        # shellcheck disable=SC2317 # called by ok
        kept_named() {
            [ "$rc" -ne 0 ] && [ -f "$sf" ] && grep -q "^$sf " /proc/swaps &&
                grep -q "swapoff $sf failed: it is still on as swap, so it stays" "$err"
        }
        ok "a swapfile whose swapoff fails is kept, on, and named ($(tail -n 1 "$err"))" kept_named
        sh "$box" swapoff "$sf"
    else
        fail "a swapfile whose swapoff fails is kept and named" "cannot make $sf: $(cat "$err")"
    fi
fi

# ------------------------------------------------------------ protections
own_kill -TERM "$sampler"
reap "$sampler"
lowered=$(awk -v was="$protected_now" 'BEGIN { split(was, w, " ") }
    NF == 4 { for (i = 1; i <= 4; i++) if ($i + 0 < w[i] + 0) { print; exit } }' "$tmp/protected.seen")
ok "fs.protected_* never lowered ($(grep -c . "$tmp/protected.seen") samples every 50 ms, all at least $protected_now)" [ -z "$lowered" ]
[ -z "$student_box" ] || rmdir "$student_box"
rm -rf "$tmp/lab"
done_testing
