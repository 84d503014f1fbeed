# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2154 # (sourced by tests/lib.sh: its names are lib.sh's)
#
# census.sh: the census of root's suite (make census), sourced by
# tests/lib.sh.  With TEST_CENSUS=1, each root test runs again under
# strace (census_start), and tests/98-census.t reads the traces (census):
# anything root made, changed or signalled that it must not.
# census_dir: where this run of the suite writes its traces, named with the
# tag of prove (the parent of every test), so that a sweep removes it once
# the run is over if 98 did not.  census_start ARGS: this test again, under
# strace (once: what it starts is traced with it).
census_dir() {
    d=$(sh "$box" dirs | sed -n 2p) && t=$(sh "$box" tag "$PPID") && echo "$d/swap-census.$t"
}
census_start() {
    # Only when asked for (make census: TEST_CENSUS=1), in a whole suite
    # (make check names TEST_COUNT), where 98 reads the traces and removes
    # the folder: a single test run by hand would leave it for a sweep, and
    # another checkout's 99 would find it first.  And only where strace
    # can trace (census_can): not under another tracer, nor where ptrace
    # is denied; there the test runs untraced, and 98 says why it skips.
    [ -n "${TEST_COUNT-}" ] &&
    [ "$(id -u)" -eq 0 ] && [ "${TEST_CENSUS:-0}" = 1 ] && [ -z "${no_census-}" ] &&
        [ -z "${SWAP_TEST_TRACED-}" ] && census_can >/dev/null || return 0
    c=$(census_dir) || return 0
    mkdir -m 700 "$c" 2>/dev/null
    # (Made by this user's first test, or another at the same moment: it
    # must pass as the lab's own folders do, scripts/box's dir_ok.)
    dir_ok "$c" >/dev/null || return 0
    SWAP_TEST_TRACED=1
    export SWAP_TEST_TRACED
    exec strace --seccomp-bpf -f -q -e signal=none -o "$c/${0##*/}.trace" -e "$census_calls" sh "$0" "$@"
}
# What creates a file or a folder, removes one or changes its mode, owner
# or size, or changes whose process it is, what sends a signal, and what
# reaps a child (names with ? are not on every architecture), and (no
# -qq) when a process ends: once reaped, its PID may be another's later
# in the same trace.  census_trace
# TRACE CMD...: CMD under strace, as census_start runs a whole test.
census_calls='trace=?open,openat,?openat2,?creat,?mkdir,mkdirat,?mknod,mknodat,?link,linkat,?symlink,symlinkat,?rename,?renameat,?renameat2,?unlink,unlinkat,?rmdir,?chmod,fchmodat,?fchmodat2,?chown,?lchown,fchownat,?truncate,?setuid,?setreuid,?setresuid,?fork,?vfork,clone,?clone3,execve,chroot,pivot_root,kill,tkill,tgkill,wait4,waitid'
census_trace() { t=$1; shift; strace -f -q -e signal=none -o "$t" -e "$census_calls" "$@"; }
# census_can: strace is installed and can trace a child here; else why not.
census_can() {
    command -v strace >/dev/null 2>&1 || { echo "strace is not installed"; return 1; }
    why=$(strace -f -o /dev/null true 2>&1) ||
        { echo "strace cannot trace here ($(printf '%s' "$why" | head -n 1)): under another tracer, or ptrace denied"; return 1; }
}

# traced: this test runs under a tracer (an outer strace -f, a debugger):
# its TracerPid is not 0.
traced() { ! grep -q '^TracerPid:[[:space:]]*0$' "/proc/$$/status"; }

# census FILE...: a line for every creation, or open for writing, of a
# path in a world-writable folder by a process of root's, or of
# /proc/sys/fs/protected_*; for every removal, chmod, chown or truncate
# there; and for every signal root sent to a process that was not, at that
# moment, of the traced tree: one reaped earlier in the trace (its PID may
# have been anyone's by then) or one never of it.  (One that has ended but
# is not yet reaped is still the same process: its PID is no one else's.)
#   VERDICT PROGRAM PID SYSCALL PATH-OR-TARGET FLAGS
# VERDICT is ok (exclusive; or a removal directly in /tmp, /var/tmp or
# /dev/shm, where unlink follows no link) or BAD.  chmod, chown and
# truncate follow a link a user planted: BAD unless root made that path
# exclusively in the same trace; so is a removal deeper, below a folder a
# user made.  A process is root's until it (or the process it was forked
# from, at that moment) sets a non-zero user ID.
census() {
    awk '
    function shared(p) { return p ~ /^\/(tmp|var\/tmp|dev\/shm)\/[^\/]+$/ || under_users(p) }
    # Deeper, in a folder that a user who is not root made in a shared one.
    function under_users(p,   d) { d = p; sub(/\/[^\/]+$/, "", d); return d in users_dir }
    function first_path(s) { return match(s, /"[^"]*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
    function last_path(s,   r) { r = ""; while (match(s, /"[^"]*"/)) { r = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } return r }
    function who(pid) { return prog[pid] != "" ? prog[pid] : "?" }
    # event PID LINE: one finished call, in the order the process made it;
    # held back while whose process it is, is not known yet (a child of
    # vfork or clone runs, and is traced, before its parent returns).
    function event(pid, line,   call, ret, p, a, v, e, flags, writes, n, l, i, t) {
        if (!(pid in uid)) { if (!(pid in pend)) pendfile[pid] = file; pend[pid] = pend[pid] line "\n"; return }
        if (!match(line, /^[a-z0-9_]+\(/)) return
        call = substr(line, 1, RLENGTH - 1)
        if (!match(line, /\) += -?[0-9]+/)) return
        ret = substr(line, RSTART, RLENGTH); sub(/.*= */, "", ret); ret += 0
        # A signal (not 0, which only asks whether the process is there)
        # by root, failed or not: its target must be live in the tree.
        if (call ~ /^(kill|tkill|tgkill)$/ && uid[pid] == 0 && !(pid in jailed) && !(pid in otherns)) {
            a = line; sub(/^[a-z]+\(/, "", a); sub(/\).*/, "", a); split(a, v, /, */)
            t = v[1] + 0
            # (0: its own process group.)
            if (t != 0 && v[call == "tgkill" ? 3 : 2] != "0") {
                if (t <= 0 && t != -1 && (-t in alive)) t = -t
                if (!(t in alive) && !(t in zombie))
                    print "BAD", who(pid), pid, call, "PID " v[1], (t in reaped ? "reaped earlier in the trace" : "not of the traced tree") (ret < 0 ? ", " substr(line, RSTART + RLENGTH + 1) : ""), file
            }
            return
        }
        if (ret < 0) return
        if (call ~ /^(clone|clone3|fork|vfork)$/) {
            if (ret > 0 && !(ret in uid)) {
                uid[ret] = uid[pid]; prog[ret] = prog[pid]; if (pid in jailed) jailed[ret] = 1
                if (ret in pend) { n = split(pend[ret], l, "\n"); delete pend[ret]; for (i = 1; i < n; i++) event(ret, l[i]) }
            }
            return
        }
        if (call == "execve") { p = first_path(line); sub(/.*\//, "", p); prog[pid] = p; return }
        # After chroot or pivot_root (debootstrap'"'"'s maintainer scripts, a
        # container), "/tmp" is the new root'"'"'s, not the machine'"'"'s.
        if (call == "chroot" || call == "pivot_root") { jailed[pid] = 1; return }
        if (pid in jailed) return
        if (call ~ /^set(re|res|)uid$/) {
            a = line; sub(/^[a-z]+\(/, "", a); sub(/\).*/, "", a); split(a, v, /, */)
            e = call == "setuid" ? v[1] : v[2]
            if (e != "-1") uid[pid] = e + 0
            return
        }
        if (uid[pid] != 0) {
            # A folder a user made in a shared one: root must not create there either.
            if (call ~ /^mkdir/) { p = first_path(line); if (p ~ /^\/(tmp|var\/tmp|dev\/shm)\/[^\/]+$/) users_dir[p] = 1 }
            return
        }
        if (call ~ /^(open|openat|openat2|creat)$/) {
            p = first_path(line)
            flags = line; sub(/^[^"]*"[^"]*"/, "", flags)
            flags = match(flags, /O_[A-Z0-9_|]*/) ? substr(flags, RSTART, RLENGTH) : ""
            if (call == "creat") flags = "O_CREAT|O_WRONLY|O_TRUNC"
            writes = flags ~ /O_(WRONLY|RDWR|TRUNC|APPEND|CREAT)/
            if (p ~ /^\/proc\/sys\/fs\/protected_/ && writes) { print "BAD", who(pid), pid, call, p, flags, file; return }
            # Exclusive; or a file that a process of root'"'"'s made exclusively
            # in the same trace (gcc makes its temporary file with mkstemp,
            # then cc1 or as open it again to write): told at the end, since
            # a process'"'"'s lines may be read after its children'"'"'s.
            if (shared(p) && writes) {
                if (flags ~ /O_EXCL/) { made[p] = 1; print "ok", who(pid), pid, call, p, flags, file }
                else { n_again++; again[n_again] = p; again_line[n_again] = who(pid) " " pid " " call " " p " " flags " " file }
            }
        } else if (call ~ /^(mkdir|mkdirat|mknod|mknodat|link|linkat|symlink|symlinkat|rename|renameat|renameat2)$/) {
            p = call ~ /^(mkdir|mknod)/ ? first_path(line) : last_path(line)
            if (shared(p)) { made[p] = 1; print "ok", who(pid), pid, call, p, "-", file }
        } else if (call ~ /^(unlink|unlinkat|rmdir)$/) {
            p = first_path(line)
            if (p ~ /^\/(tmp|var\/tmp|dev\/shm)\/[^\/]+$/) print "ok", who(pid), pid, call, p, "-", file
            else if (under_users(p)) { n_again++; again[n_again] = p; again_line[n_again] = who(pid) " " pid " " call " " p " - " file }
        } else if (call ~ /^(chmod|fchmodat|fchmodat2|chown|lchown|fchownat|truncate)$/) {
            p = first_path(line)
            if (shared(p)) { n_again++; again[n_again] = p; again_line[n_again] = who(pid) " " pid " " call " " p " - " file }
        }
    }
    # The first process of a trace is the test, root'"'"'s.  Each trace is a
    # tree of its own: what is live in one is nothing to another.
    FNR == 1 { file = FILENAME; sub(/.*\//, "", file); sub(/\.trace$/, "", file); split("", alive); split("", zombie); split("", reaped); uid[$1] = 0 }
    # A process that ended: its PID is free for another once it is reaped.
    $2 == "+++" { delete uid[$1]; delete jailed[$1]; delete prog[$1]; delete alive[$1]; zombie[$1] = 1; next }
    {
        pid = $1; line = $0; sub(/^[0-9]+ +/, "", line)
        # (A process that makes a call is live.)
        if (!(pid in alive)) { alive[pid] = 1; delete zombie[pid]; delete reaped[pid] }
        if (line ~ /<unfinished \.\.\.>$/) { sub(/ *<unfinished \.\.\.>$/, "", line); held[pid] = line; next }
        if (line ~ /^<\.\.\. [a-z0-9_]+ resumed>/) {
            sub(/^<\.\.\. [a-z0-9_]+ resumed> ?/, "", line); line = held[pid] line; delete held[pid]
        }
        # So is a child, once made, unless it has ended already.
        if (line ~ /^(clone|clone3|fork|vfork)\(/ && match(line, /\) += [0-9]+/)) {
            t = substr(line, RSTART, RLENGTH); sub(/.*= */, "", t)
            if (!(t in zombie) && !(t in reaped)) alive[t] = 1
        }
        # Reaped: wait4 returns its PID; waitid names it (unless WNOWAIT).
        t = ""
        if (line ~ /^wait4\(/ && match(line, /\) += [0-9]+/)) { t = substr(line, RSTART, RLENGTH); sub(/.*= */, "", t) }
        if (line ~ /^waitid\(/ && line !~ /WNOWAIT/ && match(line, /si_pid=[0-9]+/)) t = substr(line, RSTART + 7, RLENGTH - 7)
        if (t != "" && t + 0 > 0) { delete zombie[t]; delete alive[t]; reaped[t] = 1 }
        event(pid, line)
    }
    # Whose they were never came out: counted as root'"'"'s, each in its own
    # trace.  Such a process was made where its parent'"'"'s clone returned
    # another number for it: in a PID namespace of its own (a container'"'"'s),
    # whose PIDs its signals name, not the trace'"'"'s: those are not judged.
    END {
        for (pid in pend) {
            uid[pid] = 0; otherns[pid] = 1; file = pendfile[pid]
            n = split(pend[pid], l, "\n"); delete pend[pid]; for (i = 1; i < n; i++) event(pid, l[i])
        }
        for (i = 1; i <= n_again; i++) print (again[i] in made ? "ok" : "BAD"), again_line[i]
    }
    ' "$@"
}
