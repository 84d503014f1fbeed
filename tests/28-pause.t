#!/bin/sh
# swap --pause, held by its input: the test keeps the run's standard input
# (hold: a FIFO it holds open) and reads its stdout.  Held, the run sleeps and
# prints nothing more; each line written lets exactly one more line out;
# at the end of the input it runs to its end; no time it prints counts a
# pause.  On a terminal (tmux) it says "press Enter", names its PID, goes
# on at Enter, and at Ctrl-D runs to its end, every -i line staying.  A
# read error is one line; without --pause the output is as ever.  Plain
# runs: no box.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 33

o=$tmp/run.out e=$tmp/run.err
lines() { wc -l <"$o"; }
prompts() { grep -c '^swap: PID [0-9]* paused: ' "$e"; }
# shellcheck disable=SC2317 # called by wait_for
has_lines() { [ "$(lines)" -ge "$1" ]; }
# held TENTHS N: at each look, a tenth of a second apart, the run is
# asleep (S) with N lines out; else what was seen, on stderr.
# shellcheck disable=SC2317 # called by ok
held() {
    _h=0
    while [ "$_h" -lt "$1" ]; do
        _s=$(state_of "$pid") _l=$(lines)
        if [ "$_s" != S ] || [ "$_l" -ne "$2" ]; then
            printf 'look %s: state %s, %s lines:\n' "$_h" "${_s:-gone}" "$_l" >&2
            cat "$o" "$e" >&2
            return 1
        fi
        sleep 0.1
        _h=$((_h + 1))
    done
}
# seconds N: the time printed on line N.
seconds() { sed -n "$1p" "$o" | awk '{ print $(NF - 1) }'; }
# reach N: wait (up to 10 s) for N lines out, then say how many there are.
reach() { wait_max=100 wait_for has_lines "$1"; lines; }

# 16 MB, a line every 4 MB: start, three writing lines, after writing,
# three reading lines, after reading: nine lines, each a pause.
hold "$o" "$e" || bail "cannot make a FIFO in $tmp"
"$swap" --pause -i 4M 16M <"$held_in" >"$o" 2>"$e" 6>&- &
pid=$!
is "held at its first line: 1 line out" "$(reach 1)" -eq 1
wait_max=100 wait_for has "$e" '^swap: PID'
ok "its prompt, on stderr, names its PID ($pid) and how to go on" \
    line_is 1 "^swap: PID $pid paused: a line on standard input goes on\$" "$e"
ok "held for a second: asleep (S), still 1 line" held 10 1

go
is "a line written: exactly one more line out (2)" "$(reach 2)" -eq 2
ok "held for a second: asleep, still 2 lines" held 10 2
ok "line 2 is the first -i line" line_is 2 '^writing: 4 MB ' "$o"
t=$(seconds 2)
ok "its time ($t s) leaves out the second held after start:" seconds_gt 1 "${t:-99}"

go
is "a line written: exactly one more (3)" "$(reach 3)" -eq 3
ok "held for half a second: still 3 lines" held 5 3
go 2
is "two lines written at once: exactly two more (5)" "$(reach 5)" -eq 5
ok "held for half a second: still 5 lines" held 5 5
ok "line 5 ends the write step" line_is 5 '^after writing 16 MB: ' "$o"
t=$(seconds 5)
ok "the write step's time ($t s) leaves out the 1.5 s it was held in its middle" seconds_gt 1 "${t:-99}"
is "a prompt for each line so far (5)" "$(prompts)" -eq 5

# The end of the input: no more pauses, on to the end.
let_go
wait_max=100 reap "$pid"
pass "at the end of the input the run goes on to its end (within 10 s)"
is "its exit status 0" "$st" -eq 0
is "all nine lines out" "$(lines)" -eq 9
ok "the last one: after reading it back" line_is 9 '^after reading it back: ' "$o"
is "no prompt after the end of the input (5 in all)" "$(prompts)" -eq 5
is "nothing else on stderr" "$(wc -l <"$e")" -eq 5

# Without --pause, nothing of it: the same three lines as ever, nothing
# on stderr; with --pause and no input, the same lines, one prompt.
run "$swap" 4M
ok "without --pause: exit status 0, nothing on stderr" clean
sed 's/[0-9.][0-9.]*/N/g' "$out" >"$tmp/plain"
# (Bounded: a run that went on waiting at the end of its input would hang
# the test.)
run timeout 10 "$swap" --pause 4M </dev/null
ok "--pause, input at its end: exit status 0" [ "$rc" -eq 0 ]
sed 's/[0-9.][0-9.]*/N/g' "$out" >"$tmp/paused"
ok "--pause: stdout the same three lines as without it (numbers aside)" cmp "$tmp/plain" "$tmp/paused"
ok "--pause, input at its end: one prompt on stderr, nothing else" [ "$(grep -c '^swap: PID [0-9]* paused: ' "$err")/$(wc -l <"$err")" = 1/1 ]

# A read error: one line naming it, exit 1.
# shellcheck disable=SC2016 # expanded by that sh
run timeout 10 sh -c 'exec "$0" --pause 4M <&-' "$swap"
ok "standard input closed: exit status 1" [ "$rc" -eq 1 ]
ok "standard input closed: one error line, 'swap: standard input: Bad file descriptor'" \
    [ "$(grep -v '^swap: PID [0-9]* paused: ' "$err")" = "swap: standard input: Bad file descriptor" ]

# On a terminal: a plain sh in a terminal of the test's own, 100 wide.
if ! term_start 100 30; then
    for c in "the prompt says press Enter, naming the PID" "the PID named is the run's" \
        "held: the start line only" "Enter: the next line" "Enter again: after writing" \
        "Ctrl-D: on to the end, exit 0" "every line stays"; do
        skip "on a terminal: $c" "$term_why"
    done
    done_testing
fi
# shellcheck disable=SC2317 # called by ok and wait_for
shows() { screen_has "$1"; }
key() { tmux -S "$sock" send-keys "$1"; }
type_line "$swap --pause -i 2M 4M; echo DONE-\$?"
wait_max=100 wait_for shows '^swap: PID [0-9]+ paused: press Enter'
tpid=$(screen | sed -n 's/^swap: PID \([0-9]*\) paused: press Enter to go on (Ctrl-D: no more pauses)$/\1/p' | head -n 1)
ok "on a terminal: the prompt says press Enter, naming the PID ($tpid)" [ -n "$tpid" ]
ok "on a terminal: the PID named is the run's" [ "$(readlink "/proc/${tpid:-none}/exe")" = "$swap" ]
ok "on a terminal: held, the start line only" not shows '^(writing|after)'
key Enter
wait_max=100 wait_for shows '^writing: 2 MB '
ok "on a terminal: Enter, the next line, and held there" not shows '^after writing'
key Enter
wait_max=100 wait_for shows '^after writing 4 MB: '
ok "on a terminal: Enter again, after writing, held there" not shows '^reading: '
key C-d
wait_max=100 wait_for shows '^DONE-'
ok "on a terminal: Ctrl-D, on to the end, exit 0" shows '^DONE-0$'
screen >"$tmp/screen"
ok "on a terminal: every line stays (five, and three prompts)" \
    [ "$(grep -o -E '(start:|writing: 2 MB|after writing 4 MB:|reading: 2 MB|after reading it back:) +RSS' "$tmp/screen" | wc -l)/$(grep -c 'press Enter' "$tmp/screen")" = 5/3 ]
done_testing
