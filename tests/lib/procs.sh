# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# Processes a test finds (its runs, boxes, heads) and ends (own_kill, reap).

# own_kill SIG PID...: each PID only while running_child (scripts/lib.sh):
# a reaped PID may be anyone's now.
own_kill() {
    _ok_sig=$1 && shift
    for _ok_pid do running_child "$_ok_pid" && kill "$_ok_sig" "$_ok_pid" 2>/dev/null; done
    return 0
}
# reap PID: a child waited for once ended, within wait_for's bound, its
# status in $st; else a failure, and it and the test end.  end_child PID.
reap() {
    if ! wait_for not running_child "$1"; then
        fail "PID $1 ends within $((wait_max / 10)) s" "it has not: $(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null), state $(state_of "$1"), in $(cat "/proc/$1/wchan" 2>/dev/null)"
        own_kill -KILL "$1"
        exit 1
    fi
    wait "$1"
    st=$?
}
end_child() { own_kill -KILL "$1"; reap "$1"; }
# state_of PID: its state letter, empty once gone.  dead PID: gone, or Z.
state_of() { ! proc_stat "$1" || printf '%s\n' "$stat_state"; }
dead() { case $(state_of "$1") in ''|Z) return 0 ;; esac; return 1; }

# runs_of ARGS: this checkout's ./swap ARGS of run_uid's, truly it (its
# exe: a student's may wear its command line).  in_cgroup_named PID TEXT...
runs_of() { is_swap "$(pgrep -u "$run_uid" -f "^($swap|$gated_re) $1\$")"; }
is_swap() { for _is_p in $1; do [ "$(readlink "/proc/$_is_p/exe" 2>/dev/null)" != "$swap" ] || echo "$_is_p"; done; }
in_cgroup_named() {
    _icn_p=$1 && shift
    while IFS= read -r _icn_l; do
        for _icn_t do case $_icn_l in *"$_icn_t"*) return 0 ;; esac; done
    done 2>/dev/null <"/proc/$_icn_p/cgroup"
    return 1
}
# heads PID...: those whose parent is not among them (a forked shell).
# shellcheck disable=SC2086 # the fields, a word each
heads() {
    _hs=" $* "
    for _h do
        _st=''
        { read -r _st <"/proc/$_h/stat"; } 2>/dev/null || continue
        set -- ${_st##*") "}
        case $_hs in *" ${2-} "*) ;; *) echo "$_h" ;; esac
    done
}
# boxed_run_of TAG: a process in the box of owner TAG (any).  keep_gone:
# the names on stdin whose owner has ended.
boxes() { find /sys/fs/cgroup -type d -name 'swap-box*' -user "$self_uid" 2>/dev/null; }
boxed_run_of() {
    for d in $(boxes); do
        case $d in *"$1"*|*"$(echo "$1" | tr . -)"*) [ -n "$(cat "$d/cgroup.procs" 2>/dev/null)" ] && return 0 ;; esac
    done
    return 1
}
keep_gone() {
    # shellcheck disable=SC2016 # expanded by that sh
    sh -c 'box_library=1 box_self=$1; . "$1"
        while read -r f; do t=$(tag_of "$f"); [ -n "$t" ] && ! owner_alive "$t" && echo "$f"; done' sh "$box"
}
