#!/bin/sh
# Root runs exactly the file it checked, with the rights of the one who
# asked, writes only where that one may, and its guard outlives a machine
# out of PIDs (scripts/gate: gate, write_ok, write_for; scripts/undo: guard_watch).
#  - A student flips a link to the program, and a link to a folder in the
#    middle of its path, between her script and a program of root's, while
#    root asks for 200 runs of it: her canary never runs as root.
#  - lab demo and lab plot refuse her program before any run, the plain
#    one too; box run under sudo runs the program as the user who ran it.
#  - lab plot OUT, OUT a link to a folder only root may write: nothing is
#    written there (under sudo, her own file in its place; root alone
#    refuses a folder of hers before any run); OUT in a folder the asker
#    may not write: refused first.
#  - The guard with its forks denied (a pids cgroup): still there, and the
#    machine as found within 30 s of the PIDs coming back; its log in
#    root's state folder where there is no /dev/log.
#  - box run -p whose caller has gone at once: no box that the sweep
#    leaves running.
# Where no box can be made (box how), the checks that run one skip and say
# why; the gate's refusals and lab plot's refused OUT run all the same.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
# (Its turn: its boxes, guard and changed swappiness are for the machine.)
# shellcheck disable=SC2119 # a student, no victim
need_users
plan 16
# Whether a box can be made here (box how): the checks that need one skip,
# and say why, where none can (a container whose cgroup holds its own
# processes); with REQUIRE_BOX=1 they fail.
box_why=''
how=$(sh "$box" how) || box_why="no way to make a memory box: ${how#none: }"

# The student's home (a folder of hers below root's, as /home/NAME is),
# with her canary: a script that writes the user it ran as into her
# folder (which root could write too), and the links she flips.  Root's
# program, in root's folder, is the links' other end.
hd=/var/lib/swap-canary.$tag/home
mkdir -m 755 "${hd%/*}" "$hd" && chown "$student:$student" "$hd"
# shellcheck disable=SC2016 # the canary's own $0
printf '#!/bin/sh\nid -u >>"%s/ran-as"\n' "$hd" | as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/canary"
as_student mkdir "$hd/hers"
as_student cp "$hd/canary" "$hd/hers/prog"
mkdir -m 755 "$tmp/root" && printf '#!/bin/sh\nexit 0\n' >"$tmp/root/prog" && chmod 755 "$tmp/root/prog"
chmod 755 "$tmp"
# shellcheck disable=SC2317 # called by the predicates below
ran_as_root() { grep -qx 0 "$hd/ran-as" 2>/dev/null; }
# Predicates for ok.  link_replaced_by UID: lab
# plot wrote its figure as UID's own file where her link was, and nothing
# in root's folder.  refused_before_run: lab plot refused an OUT it may
# not write before any run.  undone_within S: the guard put the machine
# back within S seconds ($t).  What they found, on stderr.
# shellcheck disable=SC2317 # called by ok
link_replaced_by() {
    [ "$rc" -eq 0 ] && [ -z "$(ls -A "$tmp/rootonly")" ] && [ -f "$sd/fig.svg" ] && [ ! -L "$sd/fig.svg" ] &&
        [ "$(stat -c %u "$sd/fig.svg")" = "$1" ] && grep -q '<svg' "$sd/fig.svg" && return 0
    echo "root's folder: $(ls -A "$tmp/rootonly"); OUT: $(ls -l "$sd/fig.svg")" >&2
    return 1
}
# refused_unwritten OUT: root alone refused OUT, in a folder others may
# change, before any run; her link there untouched.
# shellcheck disable=SC2317 # called by ok
refused_unwritten() {
    [ "$rc" -ne 0 ] && [ -z "$(ls -A "$tmp/rootonly")" ] && grep -q "refusing to write $1 as root: " "$err" &&
        ! grep -q running "$err" && [ "$(readlink "$1")" = "$tmp/rootonly" ] && return 0
    echo "root's folder: $(ls -A "$tmp/rootonly"); OUT: $(ls -l "$1")" >&2
    return 1
}
# shellcheck disable=SC2317 # called by ok
refused_before_run() {
    [ "$rc" -ne 0 ] && [ -z "$(ls -A "$tmp/rootonly")" ] && grep -q "cannot write $tmp/rootonly/fig.svg" "$err" &&
        ! grep -q running "$err"
}
# shellcheck disable=SC2317 # called by ok
undone_within() {
    undone && [ "$t" -le "$1" ] && return 0
    echo "after $t s: box $(ls -d "$mem/swap-box.$otag" 2>&1); vm.swappiness $(cat /proc/sys/vm/swappiness), was $was" >&2
    return 1
}

# 1-2. The flip race: her links (the program itself, and a folder in the
# middle of its path) flip between hers and root's as fast as she can,
# while root asks for 200 runs through them: 180 through the gate in one
# shell (scripts/box's own gate and exec, as box run does them, without
# the sweep and the probe around each), and 20 whole box runs.  She flips
# them in one process (perl, which prove needs anyway), each flip a new
# link renamed over the old, as ln -sf does it: a shell's ln a flip would
# flip a hundred times more slowly, and start 2,000 processes.
# shellcheck disable=SC2016 # perl's own variables
as_student perl -e 'chdir $ARGV[0] or die "$ARGV[0]: $!\n";
    my @flips = (["$ARGV[1]/prog", "prog"], [$ARGV[1], "mid"], ["canary", "prog"], ["hers", "mid"]);
    until (-e "stop") {
        for my $f (@flips) { symlink($f->[0], "$f->[1].new") and rename("$f->[1].new", $f->[1]) }
    }' "$hd" "$tmp/root" &
flipper=$!
wait_for test -L "$hd/mid"
# shellcheck disable=SC2016 # expanded by that sh
refused=$(sh -c 'box_library=1 box_self=$1; . "$1"; r=0 i=0
    while [ $i -lt 90 ]; do
        for p in "$2/prog" "$2/mid/prog"; do
            if gate "$p"; then $gated_as "$gated"; else r=$((r + 1)); fi
        done
        i=$((i + 1))
    done
    echo "$r"' sh "$box" "$hd")
i=0
while [ $i -lt 10 ]; do
    for p in "$hd/prog" "$hd/mid/prog"; do
        BOX_GUARD=0 sh "$box" run 16M "$p" >/dev/null 2>"$err"
        [ $? -ne 126 ] || refused=$((refused + 1))
    done
    i=$((i + 1))
done
as_student touch "$hd/stop"
reap "$flipper"
# shellcheck disable=SC2317 # called by ok
all_refused() {
    ! ran_as_root && [ "$refused" -eq 200 ] && return 0
    echo "refused $refused; ran as: $(tr '\n' ' ' <"$hd/ran-as" 2>/dev/null)" >&2
    return 1
}
ok "200 root runs through her flipping links: all refused ($(head -n 1 "$err")), her canary never ran as root" all_refused
# Under sudo, her links are the asker's own: what runs, runs as her.
as_student rm -f "$hd/ran-as" "$hd/stop"
as_student ln -sfn canary "$hd/prog"
if [ -n "$box_why" ]; then
    box_skip "under her sudo, her linked program runs, as her" "$box_why"
else
    SUDO_UID=$student_uid SUDO_GID=$(id -g "$student") BOX_GUARD=0 sh "$box" run 16M "$hd/prog" >"$out" 2>"$err"
    rc=$? ran=1
    ok "under her sudo, her linked program runs, as her (UID $student_uid)" [ "$rc:$(cat "$hd/ran-as" 2>/dev/null)" = "0:$student_uid" ]
fi
as_student rm -f "$hd/ran-as"
# Her folder in /tmp, for what follows: the sticky /tmp on its way.
sd=$(as_student mktemp -d /tmp/swap-flip.XXXXXX) && as_student chmod 755 "$sd" && as_student cp "$hd/canary" "$sd/canary"

# 3-4. box run under sudo: the program inside is the user's, and so is its
# output folder's business; without sudo, root.
if [ -n "$box_why" ]; then
    box_skip "box run under sudo: id -u inside prints the user's" "$box_why"
    box_skip "box run as root alone: id -u inside prints 0" "$box_why"
else
    SUDO_UID=$student_uid SUDO_GID=$(id -g "$student") BOX_GUARD=0 run sh "$box" run 16M id -u
    is "box run under sudo (SUDO_UID=$student_uid): id -u inside prints the user's" "$(cat "$out")" -eq "$student_uid"
    BOX_GUARD=0 run env -u SUDO_UID -u SUDO_GID sh "$box" run 16M id -u
    is "box run as root alone: id -u inside prints 0" "$(cat "$out")" -eq 0
fi

# 5-7. lab demo and lab plot: her program refused before any run, the
# plain one too.
for flow in "demo" "plot $tmp/fig.svg"; do
    # shellcheck disable=SC2086 # the flow and its OUT, a word each
    run sh "$lab" $flow "$hd/canary"
    ok "lab ${flow%% *} with her program: refused (126), nothing run ($(head -n 1 "$err" | cut -c1-100))" \
        refused_unrun "$hd/canary" "belongs to UID $student_uid" "$hd/ran-as"
done
SUDO_UID=$student_uid SUDO_GID=$(id -g "$student") run sh "$lab" demo id -u
is "lab demo under sudo: the plain run is the user's (id -u prints $student_uid)" "$(sed -n 2p "$out")" -eq "$student_uid"

# 8-10. lab plot OUT: a link of hers at OUT to a folder only root may write;
# an OUT in a folder she may not write.  The one that writes a figure runs a
# box, or run under the runner's own limit where it is below lab's SIZE
# (256 MB: lab's already_boxed, a container started with -m).
mkdir -m 700 "$tmp/rootonly"
as_student ln -s "$tmp/rootonly" "$sd/fig.svg"
lim=$(runner_limit_mb)
# (Root alone refuses her folder before any run: no box needed.)
BOX=16M run env -u SUDO_UID -u SUDO_GID sh "$lab" plot "$sd/fig.svg" "$swap" 8M
ok "lab plot as root alone, OUT her link in her folder: refused before any run, nothing in root's folder, her link as it was" \
    refused_unwritten "$sd/fig.svg"
if [ -n "$box_why" ] && { [ -z "$lim" ] || [ "$lim" -ge 256 ]; }; then
    box_skip "lab plot under her sudo, OUT her link to root's folder" "$box_why"
elif want_swap; then
    SUDO_UID=$student_uid SUDO_GID=$(id -g "$student") BOX=16M run sh "$lab" plot "$sd/fig.svg" "$swap" 8M
    ok "lab plot under her sudo, OUT her link to root's folder: her own file in its place, nothing in root's folder" \
        link_replaced_by "$student_uid"
else
    box_skip "lab plot under her sudo, OUT her link to root's folder" "$swap_why"
fi
SUDO_UID=$student_uid SUDO_GID=$(id -g "$student") run sh "$lab" plot "$tmp/rootonly/fig.svg" "$swap" 8M
ok "lab plot under her sudo, OUT in root's folder: refused before any run ($(head -n 1 "$err"))" refused_before_run

# 11-14. The guard with its forks denied.  An owner (a sleep of ours) with a
# box (a process in it) and a changed vm.swappiness, each with its record;
# its guard put in a pids cgroup that lets it no fork; the owner killed.
# pids_gone: the pids cgroup given back, whatever the test did before it
# ended (what is in it, the guard, put back where it was first).
pc=''
pids_gone() {
    [ -n "$pc" ] && [ -d "$pc" ] || return 0
    while read -r p; do echo "$p" >"$pids_mnt/cgroup.procs"; done <"$pc/cgroup.procs" 2>/dev/null
    rmdir "$pc"
}
pids_mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)pids(,|$)/ { print $2; exit }' /proc/mounts)
# (On v2 a cgroup made below the root has pids.max only where the root
# hands the controller down: pids in its cgroup.subtree_control, which a
# machine with no systemd may leave empty.)
[ -n "$pids_mnt" ] || { grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null && pids_mnt=/sys/fs/cgroup; }
guard_test() {
    desc="the guard with its forks denied"
    [ -z "$box_why" ] || { box_skip "$desc" "$box_why"; return 1; }
    { [ -n "$pids_mnt" ] && [ -w "$pids_mnt" ]; } || { skip "$desc" "no writable pids controller (cgroup v1 pids, or v2 with pids in the root's cgroup.subtree_control)"; return 1; }
    mem=$how
    case $mem in cgroup1*|cgroup2*) mem=${mem#* } ;; *) skip "$desc" "the box is a systemd scope here: the test makes a cgroup box of its own"; return 1 ;; esac
    sleep 600 9<&- &
    owner=$!
    otag=$(sh "$box" tag "$owner")
    was=$(cat /proc/sys/vm/swappiness)
    new=$((was == 33 ? 34 : 33))
    { echo "$was" | (umask 077 && dd of="$state_dir/swap-test.$otag.swappiness" conv=excl status=none) &&
        echo "$new" >/proc/sys/vm/swappiness && mkdir "$mem/swap-box.$otag"; } || { fail "$desc" "cannot make the owner's box and record"; own_kill -KILL "$owner"; return 1; }
    sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$mem/swap-box.$otag" 9<&- &
    boxed=$!
    sh "$box" guard "$otag"
    # shellcheck disable=SC2317 # called through wait_for
    # (heads: not a child it has forked and that is not yet what it runs.)
    # shellcheck disable=SC2046 # the PIDs, a word each
    guard_pid() { g=$(heads $(pgrep -u 0 -f "^sh .*/scripts/box guard-watch $otag\$")); [ -n "$g" ] && [ "$(echo "$g" | wc -l)" -eq 1 ]; }
    wait_for guard_pid || { fail "$desc" "its guard did not start"; own_kill -KILL "$owner" "$boxed"; return 1; }
    pc=$pids_mnt/swap-box.$tag.pids
    at_exit=pids_gone
    if ! err=$( { mkdir "$pc" && echo 1 >"$pc/pids.max" && echo "$g" >"$pc/cgroup.procs"; } 2>&1); then
        fail "$desc" "cannot put the guard (PID $g, $(state_of "$g")) in $pc: $err"
        own_kill -KILL "$owner"
        return 1
    fi
    end_child "$owner"
    # Until the guard has been denied forks three times (pids.events
    # counts them): what it was meant to undo is all still there, and the
    # guard lives on.
    # shellcheck disable=SC2317 # called through wait_for
    denied() { [ "$(awk '$1 == "max" { print $2 }' "$pc/pids.events" 2>/dev/null)" -ge 3 ] 2>/dev/null; }
    # shellcheck disable=SC2317 # called by ok
    denied_held() {
        wait_for denied && [ -d "$mem/swap-box.$otag" ] && [ "$(cat /proc/sys/vm/swappiness)" -eq "$new" ] && return 0
        echo "denied: $(cat "$pc/pids.events" 2>/dev/null); box: $(ls -d "$mem/swap-box.$otag" 2>&1)" >&2
        return 1
    }
    ok "$desc: its owner killed, it cannot fork, nothing undone yet" denied_held
    # (Any state but gone or a zombie: under a tracer it may be t.)
    ok "$desc: the guard is still there (PID $g, state $(state_of "$g"))" not dead "$g"
    echo max >"$pc/pids.max"
    t0=$(date +%s)
    # shellcheck disable=SC2317 # called through wait_for
    undone() { [ ! -d "$mem/swap-box.$otag" ] && [ "$(cat /proc/sys/vm/swappiness)" -eq "$was" ] && [ ! -e "$state_dir/swap-test.$otag.swappiness" ]; }
    wait_max=300 wait_for undone
    t=$(($(date +%s) - t0))
    ok "$desc: the PIDs back, the machine as found in $t s of 30 (box ended, vm.swappiness $was again)" undone_within 30
    reap "$boxed"
    # Its log line is written after what it undid: looked for once the
    # guard is gone.
    # shellcheck disable=SC2016 # expanded by that sh
    wait_for sh -c '! pgrep -f "box guard-watch $1\$" >/dev/null' sh "$otag"
    if [ -S /dev/log ]; then
        skip "$desc: its log" "/dev/log is here: the guard logs to the system log"
    else
        # (And in the one before it, should the log have just turned.)
        ok "$desc: no /dev/log, its log in root's state folder ($(grep -h "swap-box.$otag" "$state_dir/guard.log.1" "$state_dir/guard.log" 2>/dev/null | tail -n 1 | cut -c1-120))" \
            grep -qs "swap-box.$otag" "$state_dir/guard.log.1" "$state_dir/guard.log"
    fi
    pids_gone
}
guard_test || { n=$((n + 3)); for k in 1 2 3; do echo "ok $((n - 3 + k)) - the guard with its forks denied # SKIP as above"; done; }

# 15-16. box run -p whose caller is gone at once: the helper refuses, or its
# box is one the sweep ends; no box with a process in it is left.  (Where
# no box can be made every helper refuses for that, before the caller
# matters: nothing to see.)
if [ -n "$box_why" ]; then
    box_skip "box run -p 7 with its caller gone at once: after a sweep, no box left with a process in it" "$box_why"
    box_skip "and no helper left running" "$box_why"
    done_testing
fi
for k in 1 2 3; do
    sh -c 'sh "$1" run -p 7 16M sleep 300 9<&- >/dev/null 2>&1 & echo $!; exit 0' sh "$box" >>"$tmp/helpers"
done
# shellcheck disable=SC2317 # called through wait_for
settled() {
    while read -r h; do
        # (Gone or a zombie: its parent ended at once, and PID 1 reaps it
        # when it will, which on some machines is a second or two later.)
        ! dead "$h" || continue
        # still starting: not yet in a box of its own
        boxed_run_of "" || return 1
    done <"$tmp/helpers"
}
wait_for settled
sh "$box" sweep 2>"$tmp/sweep.err"
# Right after the sweep (the runs would go on for 300 s): no such box with
# a process in it.
left=$(for d in $(boxes); do case $d in *swap-box.*.7) [ -z "$(cat "$d/cgroup.procs" 2>/dev/null)" ] || echo "$d" ;; esac; done)
ok "box run -p 7 with its caller gone at once, three times: after a sweep, no box left with a process in it" [ -z "$left" ]
# shellcheck disable=SC2317 # called through wait_for
helpers_gone() { while read -r h; do dead "$h" || return 1; done <"$tmp/helpers"; }
wait_for helpers_gone
ok "and no helper left running ($(tr '\n' ' ' <"$tmp/sweep.err" | cut -c1-160))" helpers_gone
done_testing
