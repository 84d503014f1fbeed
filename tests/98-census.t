#!/bin/sh
# The census: of everything root's suite created, what went into a folder
# that every user may write (/tmp, /var/tmp, /dev/shm), and how.  Every
# test before this one ran under strace (tests/lib.sh, census_start), with
# all it started: compilers, valgrind, podman, debootstrap, the lab's
# flows, the unprivileged users of tests/19 (told apart by their setuid).
# Root may create there only exclusively (O_CREAT|O_EXCL, or mkdir, link,
# symlink and mknod, which fail on any name already there): an open with
# O_CREAT and no O_EXCL, or an open for writing of a file already there,
# follows whatever another user planted at that name (valgrind's debugger
# files did, until the tests gave it a private TMPDIR and --vgdb=no).  Nor
# may root open for writing the sysctls that protect users from each other
# (fs.protected_*), chmod, chown or truncate there what it did not make
# itself, or remove anything below a folder a user made there.  And no
# signal of root's may go to a process that is not, at that moment, of the
# traced tree: one reaped earlier in the trace (its PID may be anyone's by
# then) or one never of it.  Runs last but for
# 99, alone, after every other test.
# shellcheck disable=SC2034 # read by tests/lib.sh
no_census=1
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
is_root || skip_all "not root: the census is of root's suite"
why=$(census_can) || skip_all "$why: no census was taken"
plan 11

# The census itself is tested first, on a real trace of a known program:
# valgrind with its debugger files (--vgdb=yes) creates one with O_CREAT
# and no O_EXCL.  (In a private folder, named /tmp in the trace: the test
# must not do in /tmp what it looks for.)
if command -v valgrind >/dev/null 2>&1; then
    mkdir -m 700 "$tmp/k"
    TMPDIR=$tmp/k census_trace "$tmp/known.trace" valgrind -q --vgdb=yes true >/dev/null 2>&1
    sed -i "s|\"$tmp/k/|\"/tmp/|g" "$tmp/known.trace"
    census "$tmp/known.trace" >"$tmp/known.census"
    ok "the census catches valgrind's debugger file: $(grep '^BAD' "$tmp/known.census" | head -n 1)" \
        has "$tmp/known.census" '^BAD [^ ]* [0-9]* open[a-z0-9]* /tmp/vgdb-pipe-shared-mem-vgdb-'
else
    skip "the census catches valgrind's debugger file" "valgrind is not installed"
fi

# known DESC WANT CMD...: CMD traced as the census traces, with this
# test's private folder named /tmp in the trace; the census must print a
# line that matches WANT (grep -E), and no BAD line when WANT is "^ok".
mkdir -m 700 "$tmp/s"
known() {
    desc=$1 want=$2
    shift 2
    census_trace "$tmp/t.trace" "$@" >/dev/null 2>&1
    sed -i "s|\"$tmp/s/|\"/tmp/|g" "$tmp/t.trace"
    census "$tmp/t.trace" >"$tmp/t.census"
    ok "$desc: $(grep -E "$want" "$tmp/t.census" | head -n 1)" census_says "$want"
}
# census_says WANT: a line of $tmp/t.census matches WANT, and with WANT
# "^ok" no line is BAD; what the census said on stderr if not.
# shellcheck disable=SC2317 # called by ok
census_says() {
    grep -Eq "$1" "$tmp/t.census" && { [ "$1" != "^ok" ] || ! grep -q '^BAD' "$tmp/t.census"; } && return 0
    cat "$tmp/t.census" >&2
    return 1
}
# A background job that ended, reaped by the shell's wait (not while it
# slept: a perl slow to start, under strace on a busy machine, was not yet
# gone after 0.3 s, and the kill found it alive), then signalled by its old
# PID.  The PID cannot be anyone's by then: the job
# made itself a process group's leader and left a child in that group
# until the shell that sends the signal has gone (asked with signal 0
# every 50 ms; at most 30 s), and a PID is not used again while it names
# a live process group (POSIX, XBD "Process ID Reuse"), so the kill finds
# no process (ESRCH), however slow the machine.  (And SIGWINCH, ignored by
# default, all the same.  Signal 0, a mere probe, the census lets pass.)
# shellcheck disable=SC2016 # expanded by that sh
known "the census catches a signal to a PID reaped earlier in the trace" '^BAD sh [0-9]+ kill PID [0-9]+ reaped earlier in the trace' \
    sh -c 'perl -e "my \$sh = getppid; setpgrp(0, 0); fork and exit;
        for (1 .. 600) { kill(0, \$sh) or last; select(undef, undef, undef, 0.05) }" & p=$!; wait; kill -WINCH $p; true'
# (The target, a child of this shell, stopped first: it cannot end on its
# own and be reaped while the traced kill is on its way, however slow the
# machine; a TERM waits for its CONT.)
sleep 30 &
outside=$!
own_kill -STOP "$outside"
known "the census catches a signal to a process not of the traced tree" "^BAD kill [0-9]+ kill PID $outside not of the traced tree" kill -TERM "$outside"
end_child "$outside"
# shellcheck disable=SC2016 # expanded by that sh
known "a signal to a live child of the tree, and to one ended but not yet reaped: no BAD line" '^ok' \
    sh -c 'sleep 5 & kill $!; wait
        perl -e "if (my \$c = fork) { select(undef, undef, undef, 0.3); kill 15, \$c; waitpid \$c, 0 } else { exit 0 }"
        mkdir "$1/d4"' sh "$tmp/s"
: >"$tmp/s/planted"
# shellcheck disable=SC2016 # expanded by that sh
known "the census catches root's chmod of a file in a shared folder it did not make" '^BAD chmod [0-9]+ fchmodat /tmp/planted' \
    sh -c 'chmod 600 "$1/planted"' sh "$tmp/s"
# shellcheck disable=SC2016 # expanded by that sh
known "a removal directly in a shared folder, and a chmod of what root made there: listed, no BAD line" '^ok rm [0-9]+ unlinkat /tmp/planted' \
    sh -c 'mkdir "$1/d" && chmod 700 "$1/d" && rm -f "$1/planted"' sh "$tmp/s"

# Asked for where strace cannot trace, the census is not taken and this
# test says why, with a SKIP, never a failure: a stand-in strace that
# cannot attach, and this test under a tracer already (strace -f make
# check, a debugger, a CI wrapper).
mkdir -m 700 "$tmp/fake" &&
    printf '#!/bin/sh\necho "strace: attach: ptrace(PTRACE_SEIZE, 1): Operation not permitted" >&2\nexit 1\n' >"$tmp/fake/strace" &&
    chmod 755 "$tmp/fake/strace"
got=$(PATH=$tmp/fake:$PATH TEST_CENSUS=1 sh "$0" 2>&1 | head -n 1)
ok "a strace that cannot attach: a SKIP that says why ($got)" matches "$got" '1..0 # SKIP strace cannot trace here (strace: attach*'
got=$(TEST_CENSUS=1 strace -f -o /dev/null sh "$0" 2>&1 | head -n 1)
ok "under a tracer already: a SKIP that says why ($got)" matches "$got" '1..0 # SKIP strace cannot trace here*'

# The suite's own census: where make check traced the tests.
c=$(census_dir) || c=''
traces=$(find "${c:-/nonexistent}" -maxdepth 1 -name '*.trace' 2>/dev/null | wc -l)
if [ "$traces" -eq 0 ]; then
    why="no test of this run was traced${c:+ ($c)}: make census, or TEST_CENSUS=1 make check, traces them"
    [ "${TEST_CENSUS:-0}" = 1 ] || why="make check runs untraced: make census, or TEST_CENSUS=1 make check, traces the suite"
    for t in "every test traced" "root created nothing in a shared folder but exclusively" "no test opened fs.protected_* for writing"; do
        skip "$t" "$why"
    done
    done_testing
fi
diag "census of $traces tests' traces in $c ($(cat "$c"/*.trace | wc -l) lines)"
# (make check says how many tests it runs; all are traced but those that
# say no_census=1: 09, 21, 98 and 99.)
untraced=$(grep -l '^no_census=1' "$top"/tests/*.t | sed 's|.*/||; s/-.*//' | tr '\n' ' ')
if [ -n "${TEST_COUNT-}" ]; then
    is "every test but $untraced was traced, a trace each ($(find "$c" -name '*.trace' -printf '%f ' | sed 's/-[^ ]*//g'))" "$traces" -eq $((TEST_COUNT - $(echo "$untraced" | wc -w)))
else
    skip "every test was traced" "not run by make check: how many tests ran is unknown here"
fi
census "$c"/*.trace >"$tmp/census"
diag "root's creations in shared folders: $(grep -c . "$tmp/census")"
awk '{ print $1, $2, $4, $5 }' "$tmp/census" | sort | uniq -c | sort -rn | head -n 20 | while read -r line; do diag "$line"; done
bad=$(grep '^BAD' "$tmp/census" | head -n 20)
# (On stderr too: prove shows it without -v, and so does CI's log.)
[ -z "$bad" ] || printf 'census: %s\n' "$bad" >&2
ok "root created nothing in a shared folder but exclusively, changed nothing there it did not make, and signalled only live processes of its own" [ -z "$bad" ]
ok "no test opened fs.protected_* for writing" not has "$tmp/census" 'protected_'
rm -rf "$c"
done_testing
