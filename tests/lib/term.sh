# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# A terminal of the test's own, in tmux.

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
