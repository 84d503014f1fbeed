#!/bin/sh
# -i STEP: a progress line each time another STEP is written and again while
# it is read back, in the usual columns; the three usual lines stay, each
# last of its step.  Lines are flushed as they come: a run the kernel kills
# mid-write has already shown how far it got.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 19

# The labels of FILE's ($out's) lines, each less its padding, a comma after each.
labels() { cut -c1-24 "${1:-$out}" | sed 's/ *$//' | tr '\n' ','; }
nums='RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
run "$swap" -i 16M 64M
is "-i 16M 64M: exit status 0" "$rc" -eq 0
ok "-i 16M 64M: nothing on stderr" [ ! -s "$err" ]
is "-i 16M 64M: 3 + 3 + 3 lines (the step's last 16 MB is the usual line)" "$(wc -l <"$out")" -eq 9
want='start:                   
writing: 16 MB           
writing: 32 MB           
writing: 48 MB           
after writing 64 MB:     
reading: 16 MB           
reading: 32 MB           
reading: 48 MB           
after reading it back:   '
i=0 bad=''
while IFS= read -r label; do
    i=$((i + 1))
    sed -n "${i}p" "$out" | grep -qE "^$label$nums" || bad="$bad line $i"
done <<EOF2
$want
EOF2
ok "-i 16M 64M: every line's label and columns" [ -z "$bad" ]
grep -vE '^(writing|reading): ' "$out" >"$tmp/usual"
ok "-i 16M 64M: without the progress lines, the usual three lines" \
    [ "$(labels "$tmp/usual")" = "start:,after writing 64 MB:,after reading it back:," ]
# Plainly, RSS follows the pages written: at least 16, 32, 48 MB.
r=$(awk "$report_awk"'NR >= 2 && NR <= 4 && report($0) { print R_rss }' "$out" | tr '\n' ' ')
lim=$(runner_limit_mb)
if [ -n "$lim" ] && [ "$lim" -lt 96 ]; then
    skip "writing lines: RSS at least 16, 32, 48 MB" "this runner is itself limited to $lim MB, below the 64 MB a plain run needs"
else
    lag=$(rss_lag_mb)
    ok "writing lines: RSS at least 16, 32, 48 MB, less $lag MB the count may lag ($r)" \
        [ "$(echo "$r" | awk -v l="$lag" '{ print ($1 >= 16 - l && $2 >= 32 - l && $3 >= 48 - l) }')" = 1 ]
fi
# The time column is the time since the step began: it never goes down
# within a step, and the usual line is the step's total.
mono=$(awk 'NR == 2 || NR == 6 { last = 0 }
    $(NF - 1) + 0 < last { print "line " NR; exit }
    { last = $(NF - 1) + 0 }' "$out")
ok "times rise within each step" [ -z "$mono" ]

run "$swap" -i 3M 8M
ok "-i 3M 8M: exit status 0, nothing on stderr" clean
ok "-i 3M 8M: lines at 3 and 6 MB, then the usual line" \
    [ "$(labels)" = "start:,writing: 3 MB,writing: 6 MB,after writing 8 MB:,reading: 3 MB,reading: 6 MB,after reading it back:," ]
# Three pages and ten: 12K and 40K with 4 KiB pages, 48K and 160K with 16 KiB.
pk=$(($(getconf PAGESIZE) / 1024))
run "$swap" -i $((3 * pk))K $((10 * pk))K
ok "-i $((3 * pk))K $((10 * pk))K: exit status 0, nothing on stderr" clean
ok "-i $((3 * pk))K $((10 * pk))K: a step that is not whole megabytes is labelled in KB ($((3 * pk)) KB)" line_is 2 "^writing: $((3 * pk)) KB "
ok "-i $((3 * pk))K $((10 * pk))K: and again ($((9 * pk)) KB)" line_is 4 "^writing: $((9 * pk)) KB "
run "$swap" -o random -i 32M 64M
ok "-o random -i 32M 64M: exit status 0, nothing on stderr" clean
ok "-o random -i 32M 64M: a progress line while reading" line_is 4 '^reading: 32 MB '
ok "-o random -i 32M 64M: the read order's label ends the read step" line_is 5 '^after reading, random: '
run "$swap" -i 64M 64M
is "-i SIZE: no progress line, the usual three" "$(wc -l <"$out")" -eq 3

# Killed mid-write in a box with no swap: the lines up to the kill are there,
# though stdout is a file (fully buffered unless flushed).
if ! how=$(sh "$box" how); then
    for c in "exit status 137" "'writing: 48 MB' was already out" "no 'after writing'"; do
        box_skip "killed mid-write: $c" "no way to make a memory box: ${how#none: }"
    done
    done_testing
fi
swap_lock
run sh "$box" run -n 64M "$swap" -i 16M
is "killed mid-write: exit status 137" "$rc" -eq 137
ok "killed mid-write: 'writing: 48 MB' was already out" has "$out" '^writing: 48 MB '
ok "killed mid-write: no 'after writing'" not has "$out" '^after writing'
done_testing
