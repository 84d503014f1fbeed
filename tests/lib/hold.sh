# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# Runs a test holds, finds and ends; and a terminal of its own.

# A run held by swap's pause (docs/tests.md): hold [FILE...], its input,
# $held_in, a FIFO kept on fd 6, and FILEs (its stderr) emptied; start it
# <"$held_in" 6>&-.  go [N]: N lines more out (1).  let_go: no more pauses.
# paused FILE [N]: its Nth prompt is there; paused_pid FILE [N]: its PID.
hold() {
    let_go
    for _f do : >"$_f"; done
    read -r _h _ </proc/self/stat
    held_in=$tmp/held.$_h.$held_n held_n=$((held_n + 1))
    mkfifo "$held_in" && exec 6<>"$held_in"
}
go() { _g=0; while [ $_g -lt "${1:-1}" ]; do echo; _g=$((_g + 1)); done >&6; }
let_go() { [ -z "$held_in" ] || { exec 6>&-; held_in=''; }; }
paused() { [ "$(grep -c '^swap: PID [0-9]* paused: ' "$1" 2>/dev/null)" -ge "${2:-1}" ]; }
paused_pid() { sed -n 's/^swap: PID \([0-9]*\) paused: .*/\1/p' "$1" | sed -n "${2:-1}p"; }
# next_run FILE: a line at a time until a new run pauses, in $paused_at.
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
# under_other_lru FILE LRU: the 1997 script's rows, paused in turn, until
# lru_gen/enabled ($switched) is not LRU; 1 if not within four.
under_other_lru() {
    _r=0
    wait_for paused "$1" || return 1
    while { read -r switched </sys/kernel/mm/lru_gen/enabled; } 2>/dev/null && [ "$switched" = "$2" ]; do
        _r=$((_r + 1))
        { [ $_r -lt 4 ] && next_run "$1"; } || return 1
    done
}

# own_kill SIG PID...: each PID only while a child of this shell, not
# ended, told by builtins alone: a reaped PID may be anyone's now.
own_kill() {
    _ok_sig=$1 && shift
    for _ok_pid do running_child "$_ok_pid" && kill "$_ok_sig" "$_ok_pid" 2>/dev/null; done
    return 0
}
running_child() {
    read -r _rc_stat 2>/dev/null <"/proc/$1/stat" || return 1
    read -r _rc_self _ </proc/self/stat || return 1
    # shellcheck disable=SC2086 # state, then parent, after the name
    set -- ${_rc_stat##*) }
    [ "$1" != Z ] && [ "$2" = "$_rc_self" ]
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
state_of() {
    _so=''
    { read -r _so <"/proc/$1/stat"; } 2>/dev/null || return 0
    _so=${_so##*") "}
    printf '%s\n' "${_so%% *}"
}
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

# term_start COLS ROWS [CMD]: a tmux of the test's own showing CMD (sh);
# else 1, $term_why.  screen_has ERE: the screen then in $tmp/screen.
term_start() {
    term_stop
    term_why="tmux is not installed (Debian: tmux)"
    command -v tmux >/dev/null 2>&1 || return 1
    sock=$tmp/tmux.$held_n held_n=$((held_n + 1))
    tmux -S "$sock" -f /dev/null new-session -d -x "$1" -y "$2" \
        "${3:-env -i PATH=/usr/bin:/bin TERM=xterm HOME=$tmp PS1='$ ' sh}" 2>"$tmp/tmux.err" 6>&- &&
        tmux -S "$sock" has-session 2>>"$tmp/tmux.err" && return 0
    term_why="tmux could not start a session: $(head -n 1 "$tmp/tmux.err")" sock=''
    return 1
}
term_stop() { [ -z "$sock" ] || tmux -S "$sock" kill-server 2>/dev/null; sock=''; }
screen() { tmux -S "$sock" capture-pane -p -S - | sed 's/ *$//'; }
screen_has() { screen >"$tmp/screen" 2>/dev/null && grep -qE -- "$1" "$tmp/screen"; }
type_line() { tmux -S "$sock" send-keys -l "$1" && tmux -S "$sock" send-keys Enter; }
