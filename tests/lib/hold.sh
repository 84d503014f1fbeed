# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# Runs a test holds at swap's pauses, and lets go; a terminal of its own (tmux).

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
