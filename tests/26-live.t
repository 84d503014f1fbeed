#!/bin/sh
# The live view of -i, in a real terminal (tmux): on a terminal the
# progress lines of a step are redrawn in place, so the screen does not
# scroll while a step runs and what stays is every step's own lines, also
# on a terminal too narrow for a line; through a pipe nothing changes (no
# escape, every line); --live and --no-live force either way; a Ctrl-C
# leaves the terminal's settings as they were.  Plain runs: no box.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (Debian: tmux)"
need_room 2048
plan 10

# Servers of this test's own (their sockets in TMPDIR), each a plain sh in
# a terminal COLS wide and 30 high: start COLS.
t() { tmux -S "$sock" "$@"; }
at_exit=stop_tmux
nsock=0 sock=''
stop_tmux() { [ -z "$sock" ] || t kill-server 2>/dev/null; }
start() {
    stop_tmux
    nsock=$((nsock + 1)) sock=$tmp/tmux$nsock
    t -f /dev/null new-session -d -x "$1" -y 30 -s live "env -i PATH=/usr/bin:/bin TERM=xterm HOME=$tmp PS1='$ ' sh" 2>"$err" || return 1
    t set-option -t live history-limit 5000 >/dev/null
}
# typed CMD: run CMD in the session and wait (up to 60 s) until it is done.
typed() {
    k=$((k + 1))
    t send-keys -t live "$1; echo DONE$k-\$?" Enter
    wait_max=600 wait_for sh -c "tmux -S '$sock' capture-pane -p -t live -S - 2>/dev/null | grep -q 'DONE$k-[0-9]'"
}
k=0
screen() { t capture-pane -p -t live -S - | sed 's/ *$//'; }
history() { t display-message -p -t live '#{history_size}'; }

# 64 MB a megabyte at a time: 63 progress lines in each step, more than
# the screen holds; with -m a strip after each.
start 100 || { fail "tmux starts a session" "$(cat "$err")"; done_testing; }
typed "$swap -m -i 1M 64M"
screen >"$tmp/screen"
if grep -q '^DONE1-0$' "$tmp/screen" && [ "$(history)" -eq 0 ]; then
    pass "on a terminal, -m -i 1M 64M (126 progress lines, 126 strips): the screen never scrolled (no history)"
else
    fail "on a terminal, -m -i 1M 64M: the screen never scrolled" "history: $(history) lines" "$(cat "$tmp/screen")"
fi
if [ "$(grep -c -E '^(start:|after writing 64 MB:|after reading it back:) ' "$tmp/screen")" -eq 3 ] &&
    [ "$(grep -c '^          \[' "$tmp/screen")" -eq 3 ] && ! grep -q -E '^(writing|reading): ' "$tmp/screen"; then
    pass "what stays: the three step lines and their three strips, no progress line"
else
    fail "what stays: the three step lines and their three strips, no progress line" "$(cat "$tmp/screen")"
fi

# --no-live on the terminal: every line, scrolling as before.
typed "clear; $swap --no-live -i 1M 64M"
ok "--no-live on a terminal: all 126 progress lines" [ "$(screen | grep -c -E '^(writing|reading): ')" -eq 126 ]

# 40 columns: every line of the run is wider; the block is cut to the
# width, so going back up over it leaves nothing of it behind.
start 40 || fail "tmux starts a session 40 columns wide" "$(cat "$err")"
typed "$swap -m -l -i 2M 64M"
screen >"$tmp/narrow"
if grep -q "^DONE$k-0\$" "$tmp/narrow" && ! grep -q -E '^(writing|reading): ' "$tmp/narrow" &&
    [ "$(grep -c '^after ' "$tmp/narrow")" -eq 2 ] && [ "$(grep -c '^  heat ' "$tmp/narrow")" -eq 2 ]; then
    pass "40 columns, -m -l -i 2M: no piece of a progress block left (only the steps' own two heat lines), the step lines there"
else
    fail "40 columns, -m -l -i 2M: no piece of a progress block left" "$(cat "$tmp/narrow")"
fi

# Through a pipe: exactly the lines as ever, and no escape.
"$swap" -m -l -i 1M 64M | cat >"$out"
esc=$(printf '\033')
if ! grep -q "$esc" "$out" && [ "$(grep -c -E '^(writing|reading): ' "$out")" -eq 126 ] &&
    [ "$(grep -c '^  heat ' "$out")" -ge 128 ]; then
    pass "through a pipe: no escape, all 126 progress lines and their heat lines"
else
    fail "through a pipe: no escape, all 126 progress lines and their heat lines" "$(head -c 600 "$out" | od -c | head -5)"
fi
"$swap" -i 8M 16M >"$out"
if ! grep -q "$esc" "$out" && [ "$(wc -l <"$out")" -eq 5 ] && [ "$(grep -c -E '^(writing|reading): 8 MB ' "$out")" -eq 2 ]; then
    pass "into a file: the same five lines as ever, no escape"
else
    fail "into a file: the same five lines as ever, no escape" "$(cat -A "$out")"
fi
"$swap" --live -i 8M 16M | cat >"$out"
if grep -q "$esc\\[1A" "$out"; then pass "--live through a pipe: redrawn all the same (cursor up)"
else fail "--live through a pipe: redrawn all the same (cursor up)" "$(cat -A "$out")"; fi
run "$swap" --live 16M
if [ "$rc" -eq 0 ] && ! grep -q "$esc" "$out" && [ "$(wc -l <"$out")" -eq 3 ]; then
    pass "--live without -i: the three lines, nothing to redraw"
else
    fail "--live without -i: the three lines, nothing to redraw" "$(show_run)"
fi

# Ctrl-C in the middle of a live step: the terminal's settings as before,
# and the shell's next line where it belongs.
start 100 || fail "tmux starts a session again" "$(cat "$err")"
typed "stty -g >$tmp/stty.before"
t send-keys -t live "$swap -i 1M 2G" Enter
wait_max=100 wait_for sh -c "tmux -S '$sock' capture-pane -p -t live 2>/dev/null | grep -q '^writing: '"
t send-keys -t live C-c
# (The next command typed once the run is gone: typed before, its echo
# would come while the run still owns the terminal.)
wait_max=50 wait_for sh -c "! pgrep -f '^$swap -i 1M 2G\$' >/dev/null"
typed "stty -g >$tmp/stty.after; echo sane >$tmp/sane"
if cmp -s "$tmp/stty.before" "$tmp/stty.after" && [ "$(cat "$tmp/sane" 2>/dev/null)" = sane ]; then
    pass "Ctrl-C during a live step: the terminal's settings unchanged, the shell runs the next command"
else
    fail "Ctrl-C during a live step: the terminal's settings unchanged" "$(cat "$tmp/stty.before" "$tmp/stty.after")" "$(screen | tail -5)"
fi
is "Ctrl-C: the run is gone" "$(pgrep -c -f "^$swap -i 1M 2G\$")" -eq 0
done_testing
