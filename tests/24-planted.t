#!/bin/sh
# A shared server with a hostile student: root runs nothing she can plant,
# and her squatting slows no other user down.
#  - scripts/box run as root refuses, with one line that says why, and
#    never runs: her program in /tmp; a program of root's own under a fixed
#    name in /tmp (she could have made the name first, or made it hers);
#    one a group may write; one below a folder her group may write.  The
#    program of the user who ran sudo, in a folder of hers, is run; so is
#    one of hers beside the scripts/box of her own checkout that root runs.
#  - She makes /tmp/swap-lab-UID of the victim's and 2,000 folders named
#    as the victim's fallback folders (/tmp/swap-lab-UID.XXXXXX): the
#    victim's box dirs takes under 2 s, and keeps to one folder of its own.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_users victim
plan 16

# refused DESC WHY PROG: root's box run of PROG exits 126 with one line
# that names PROG and WHY, and PROG (which would write $tmp/ran) never ran.
refused() {
    rm -f "$tmp/ran"
    run sh "$box" run 16M "$3" "$tmp/ran"
    ok "$1: refused with one line that says '$2', never run ($(cat "$err"))" refused_unrun "$3" "$2" "$tmp/ran"
}
# not_refused: the last run was not refused.
# shellcheck disable=SC2317 # called by ok
not_refused() { [ "$rc" -ne 126 ] && ! grep -q refusing "$err"; }
# shellcheck disable=SC2016 # the planted program's own $1
prog='#!/bin/sh
echo ran >"$1"'

# Hers, in a folder of hers in /tmp.
# shellcheck disable=SC2016 # expanded by that sh
sd=$(as_student mktemp -d /tmp/swap-plant.XXXXXX) && as_student chmod 755 "$sd" &&
    printf '%s\n' "$prog" | as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$sd/zeros"
refused "her program in /tmp" "/tmp, a folder on the way, may be written by others (mode 1777: sticky, so only an entry's owner may replace it, but anyone may make a name there first)" "$sd/zeros"

# Root's own, under a name in /tmp (made exclusively here, so that the
# test itself follows nothing she planted).
rp=$(mktemp /tmp/swap-root-zeros.XXXXXX) && printf '%s\n' "$prog" >"$rp" && chmod 755 "$rp"
refused "root's own program under a name in /tmp" "/tmp, a folder on the way, may be written by others (mode 1777: sticky, so only an entry's owner may replace it, but anyone may make a name there first); keep the program in a folder only you or root can write" "$rp"
rm -f "$rp"

# Root's, in root's own folder, but group-writable; and root's, below a
# folder her group may write.
mkdir -m 755 "$tmp/bin" "$tmp/open" && chgrp "$student" "$tmp/open" && chmod 775 "$tmp/open"
printf '%s\n' "$prog" >"$tmp/bin/gw" && chmod 775 "$tmp/bin/gw"
refused "root's program that a group may write" "may be written by others (mode 775)" "$tmp/bin/gw"
printf '%s\n' "$prog" >"$tmp/open/zeros" && chmod 755 "$tmp/open/zeros"
refused "root's program below a folder her group may write" "$tmp/open, a folder on the way, may be written by others (mode 775)" "$tmp/open/zeros"

# The user who ran sudo: her program, in a folder of hers (below root's,
# open to her as /home is: under sudo her own process opens it), is hers
# to run; without sudo's word it is refused like any other.  (Root's
# folder: one the cleanup removes with the test's users, remove_student.)
co=/var/lib/swap-canary.$tag
mkdir -m 755 "$co" "$co/home" && printf '%s\n' "$prog" >"$co/home/mine" && chmod 755 "$co/home/mine" &&
    chown -R "$student:$student" "$co/home"
refused "another user's program, with no sudo" "belongs to UID $student_uid" "$co/home/mine"
rm -f "$tmp/ran"
run env SUDO_UID="$student_uid" SUDO_GID="$(id -g "$student")" sh "$box" run 16M "$co/home/mine" "$tmp/ran"
ok "the sudo user's own program, in a folder of hers: not refused (exit $rc$([ -e "$tmp/ran" ] && echo ', it ran'))" not_refused

# A checkout of hers, run by root (su, no sudo): its own scripts/box is
# hers, so she could make it run anything as root already; the programs
# she owns beside it are run.  (Below root's folders, mode 755, open to a
# teacher whose sudo runs the suite.)
# shellcheck disable=SC2086 # box_files: the files, a word each
mkdir -m 755 "$co/co" && cp $box_files "$co/co/" && printf '%s\n' "$prog" >"$co/co/mine" &&
    chmod 755 "$co/co/mine" && chown -R "$student:$student" "$co/co"
rm -f "$tmp/ran"
run sh "$co/co/box" run 16M "$co/co/mine" "$tmp/ran"
ok "root running her checkout's own scripts/box: her program beside it is not refused (exit $rc)" not_refused

# The victim's own copy of scripts/box, readable by all (the checkout may
# lie in a folder closed to other users), in a folder of root's that the
# cleanup removes with the test's users (scripts/box's remove_student).
# shellcheck disable=SC2086 # box_files: the files, a word each
{ cp $box_files "$co/" && (cd "$co" && for f in $box_files; do chmod 644 "${f##*/}" || exit 1; done); } || fail "a copy of scripts/box for the victim" "cannot make $co"
# dirs_n: the victim's box dirs (at most 20 s), in a PID namespace of its
# own: its folder in $got, and in $started how many processes it started (the
# namespace's last PID, ns_last_pid), which no load or tracer changes.
# (Without unshare, the folder alone, and $started empty.)
dirs_n() {
    # shellcheck disable=SC2016 # expanded by that sh
    if [ -n "$pidns" ]; then
        out_n=$(unshare --pid --fork --mount-proc sh -c 'cd / && runuser -u "$1" -- env -i PATH=/usr/bin:/bin HOME=/ timeout 20 sh "$2/box" dirs 2>"$3" | head -n 1; cat /proc/sys/kernel/ns_last_pid' \
            sh "$victim" "$co" "$tmp/dirs.err")
        got=${out_n%"$nl"*} started=${out_n##*"$nl"}
    else
        got=$(as_victim timeout 20 sh "$co/box" dirs 2>"$tmp/dirs.err" | head -n 1) started=''
    fi
}
# Unsquatted first: the victim's box dirs on a /tmp of its own making,
# and how many processes that starts; then its folder removed again.
# Squatted, it may start a few more (a fallback folder made), never one a
# name: 2,001 names must not cost a look each.
pidns=''
if unshare --pid --fork --mount-proc true 2>/dev/null; then pidns=1; fi
dirs_n
base=$started
as_victim rmdir "/tmp/swap-lab-$victim_uid" 2>/dev/null
bound=$((${base:-0} + 20))
# Squatted between a look and the mkdir: the name is free when the
# victim's box_dirs starts, and the student makes it just before the
# victim's mkdir of it: that mkdir says it is there (a file in a folder of
# the victim's) and waits for her folder; the test waits for the word.
# The victim still gets a folder of its own, not a refusal.
fb=/tmp/swap-lab-$victim_uid
mkdir -m 700 "$co/at" && chown "$victim:" "$co/at"
# shellcheck disable=SC2016 # expanded by the victim's sh
as_victim timeout 20 sh -c 'box_library=1 box_self=$1 fb=$2 at=$3; . "$1"
    mkdir() { if [ "${3-}" = "$fb" ]; then : >"$at/mkdir"; i=0; while [ ! -d "$fb" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done; fi; command mkdir "$@"; }
    box_dirs && echo "$state_dir"' sh "$co/box" "$fb" "$co/at" >"$tmp/race.out" 2>"$tmp/race.err" &
racing=$!
wait_max=200 wait_for test -e "$co/at/mkdir"
ok "squatted between the look and the mkdir: the victim at its mkdir of $fb when the student makes it" test -e "$co/at/mkdir"
as_student mkdir "$fb"
reap "$racing"
rc=${st:-124}
got=$(cat "$tmp/race.out")
case $got in
"$fb".??????) mine=$(stat -c '%U %a' "$got") ;;
*) mine='' ;;
esac
is "squatted between the look and the mkdir: exit status 0" "$rc" -eq 0
ok "squatted between the look and the mkdir: the victim's own folder ($got, $mine)" [ "$mine" = "$victim 700" ]
case $got in "$fb".??????) as_victim rmdir "$got" ;; esac
as_student rmdir "$fb"
# A hard link at the name, to a file of the victim's that anyone may
# write (fs.protected_hardlinks lets her link such a file): not a folder
# of the victim's, so a squat like the others, and the victim keeps to a
# folder of its own, not a refusal.  (The file in /tmp itself: a hard
# link cannot cross to another file system, and /var/tmp may be one, as
# in the Debian 12 guest, where /tmp is a tmpfs.)
# shellcheck disable=SC2016 # expanded by the victim's sh
vf=$(as_victim sh -c 'f=$(mktemp /tmp/swap-vf.XXXXXX) && chmod 666 "$f" && echo "$f"')
if [ -n "$vf" ] && as_student ln "$vf" "$fb" 2>"$tmp/ln.err"; then
    dirs_n
    case $got in "$fb".??????) mine=$(stat -c '%U %a' "$got") ;; *) mine='' ;; esac
    ok "a hard link at the name, to the victim's file: the victim's own folder ($got, $mine)" [ "$mine" = "$victim 700" ]
    case $got in "$fb".??????) as_victim rmdir "$got" ;; esac
else
    fail "a hard link at the name, to the victim's file" "cannot make it: $(cat "$tmp/ln.err")"
fi
as_victim rm -f "$fb" "$vf"
# The squat: the victim's folder name, and 2,000 of its fallback's.
# shellcheck disable=SC2016 # expanded by that sh
as_student sh -c 'cd /tmp && mkdir "swap-lab-$1" && seq -f "swap-lab-$1.%06g" 1 2000 | xargs mkdir' sh "$victim_uid"
squatted=$(find /tmp -maxdepth 1 -user "$student_uid" -name "swap-lab-$victim_uid*" | wc -l)
is "the student squatted the victim's folder and 2,000 fallback names" "$squatted" -eq 2001
dirs_n
first=$got
case $got in
/tmp/swap-lab-"$victim_uid".??????) mine=$(stat -c '%U %a' "$got") ;;
*) mine='' ;;
esac
if [ -n "$pidns" ]; then
    is "squatted: the victim's box dirs start $started processes, at most $bound (unsquatted $base)" "$started" -le "$bound"
else
    skip "squatted: the victim's box dirs start no process a name" "unshare cannot make a PID namespace here, to count them"
fi
ok "squatted: a folder of its own ($got, $mine)" [ "$mine" = "$victim 700" ]
dirs_n
if [ -n "$pidns" ]; then
    is "squatted, again: $started processes, at most $bound" "$started" -le "$bound"
else
    skip "squatted, again: no process a name" "unshare cannot make a PID namespace here, to count them"
fi
ok "squatted, again: the same folder ($got)" [ "$got" = "$first" ]
done_testing
