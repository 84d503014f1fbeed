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
need_room 2048

# A plain sh in a terminal of the test's own, COLS wide and 30 high: start
# COLS.  typed CMD: CMD run there, waited for (its status on the screen).
start() { term_start "$1" 30; }
typed() {
    k=$((k + 1))
    type_line "$1; echo DONE$k-\$?"
    wait_for screen_has "^DONE$k-[0-9]"
}
k=0
history() { tmux -S "$sock" display-message -p '#{history_size}'; }
# (Where tmux cannot start a session, no pseudo-terminal to give: a skip.)
start 100 || skip_all "$term_why"
plan 23

# 64 MB a megabyte at a time: 63 progress lines in each step, more than
# the screen holds; with -m a strip after each.
typed "$swap -m -i 1M 64M"
screen >"$tmp/screen"
ok "on a terminal, -m -i 1M 64M: the run ended, exit status 0" has "$tmp/screen" '^DONE1-0$'
is "on a terminal, -m -i 1M 64M (126 progress lines, 126 strips): the screen never scrolled (no history)" "$(history)" -eq 0
is "what stays: the three step lines" "$(grep -c -E '^(start:|after writing 64 MB:|after reading it back:) ' "$tmp/screen")" -eq 3
is "what stays: their three strips" "$(grep -c '^          \[' "$tmp/screen")" -eq 3
ok "what stays: no progress line" not has "$tmp/screen" '^(writing|reading): '

# --no-live on the terminal: every line, scrolling as before.
typed "clear; $swap --no-live -i 1M 64M"
ok "--no-live on a terminal: all 126 progress lines" [ "$(screen | grep -c -E '^(writing|reading): ')" -eq 126 ]

# 40 columns: every line of the run is wider; the block is cut to the
# width, so going back up over it leaves nothing of it behind.
start 40 || fail "tmux starts a session 40 columns wide" "$term_why"
typed "$swap -m -l -i 2M 64M"
screen >"$tmp/narrow"
ok "40 columns, -m -l -i 2M: the run ended, exit status 0" has "$tmp/narrow" "^DONE$k-0\$"
ok "40 columns, -m -l -i 2M: no progress line left" not has "$tmp/narrow" '^(writing|reading): '
is "40 columns, -m -l -i 2M: the step lines there" "$(grep -c '^after ' "$tmp/narrow")" -eq 2
is "40 columns, -m -l -i 2M: no piece of a progress block left (only the steps' own two heat lines)" "$(grep -c '^  heat ' "$tmp/narrow")" -eq 2

# Through a pipe: exactly the lines as ever, and no escape.
# (Its status in st: a run the bound ended says so below.)
{ timeout -k 5 "$run_max" "$swap" -m -l -i 1M 64M; echo $? >"$tmp/st"; } | cat >"$out"
[ "$(cat "$tmp/st")" = 0 ] || diag "the run through a pipe: exit $(cat "$tmp/st") (124: ended after $run_max s)"
esc=$(printf '\033')
ok "through a pipe: no escape" not has "$out" "$esc"
is "through a pipe: all 126 progress lines" "$(grep -c -E '^(writing|reading): ' "$out")" -eq 126
is "through a pipe: and their heat lines" "$(grep -c '^  heat ' "$out")" -ge 128
timeout -k 5 "$run_max" "$swap" -i 8M 16M >"$out"
ok "into a file: no escape" not has "$out" "$esc"
is "into a file: the same five lines as ever" "$(wc -l <"$out")" -eq 5
is "into a file: two of them progress lines" "$(grep -c -E '^(writing|reading): 8 MB ' "$out")" -eq 2
timeout -k 5 "$run_max" "$swap" --live -i 8M 16M | cat >"$out"
ok "--live through a pipe: redrawn all the same (cursor up)" has "$out" "$esc\\[1A"
run "$swap" --live 16M
ok "--live without -i: exit status 0, nothing on stderr" clean
ok "--live without -i: nothing to redraw" not has "$out" "$esc"
is "--live without -i: the three lines" "$(wc -l <"$out")" -eq 3

# Ctrl-C in the middle of a live step: the terminal's settings as before,
# and the shell's next line where it belongs.
start 100 || fail "tmux starts a session again" "$term_why"
typed "stty -g >$tmp/stty.before"
type_line "$swap -i 1M 2G"
wait_max=100 wait_for screen_has '^writing: '
tmux -S "$sock" send-keys C-c
# (The next command typed once the run is gone: typed before, its echo
# would come while the run still owns the terminal.)
wait_max=50 wait_for sh -c "! pgrep -f '^$swap -i 1M 2G\$' >/dev/null"
typed "stty -g >$tmp/stty.after; echo sane >$tmp/sane"
ok "Ctrl-C during a live step: the terminal's settings unchanged" cmp "$tmp/stty.before" "$tmp/stty.after"
ok "Ctrl-C during a live step: the shell runs the next command" [ "$(cat "$tmp/sane" 2>/dev/null)" = sane ]
is "Ctrl-C: the run is gone" "$(pgrep -c -f "^$swap -i 1M 2G\$")" -eq 0
done_testing
