#!/bin/sh
# The lab sheet as a student meets it, where a machine can check it:
# every command in the README's requirements table runs as a normal user,
# and every command named in it or in the troubleshooting table
# (docs/where-it-runs.md) is found in a normal user's PATH (no /sbin); no
# number of an exercise's answer (docs/answers.md) appears in the sheet
# before that exercise; every term of the sheet's glossary ("Words this
# sheet uses") is first used there or after; no link before the end of
# the exercises lands on a part of a page that prints a boxed run's fault
# count; every exercise run in a box writes out the box command, both ways;
# every exercise that needs root says so in its title; and the refusal of
# make backends names the spelling that works from make.  Each checker is
# also shown to catch a planted fault.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 22
cd "$top" || exit 1

# A normal user's PATH on Debian (login.defs ENV_PATH): no sbin.
user_path=/usr/local/bin:/usr/bin:/bin:/usr/games

# table_commands FILE HEADING [COLUMN]: the code spans of the Markdown table
# below the line that starts with HEADING (of its COLUMN only, if given),
# one a line.
# shellcheck disable=SC2016 # the backquotes are Markdown's
table_commands() {
    awk -v h="$2" -v c="${3:-0}" -F '|' 'index($0, h) == 1 { on = 1; next }
        on && /^\|/ { t = 1; if (NR > 0 && $0 !~ /^\|---/) print (c ? $(c + 1) : $0); next }
        t && !/^\|/ { exit }' "$1" |
        grep -o '`[^`]*`' | tr -d '`'
}
# not_for_users SPAN...: the spans whose first word is a program that root
# finds (sbin included) and a normal user's PATH does not.
not_for_users() {
    while read -r c; do
        w=${c%% *}
        case $w in ''|*/*|*=*|-*) continue ;; esac
        PATH=/usr/local/sbin:/usr/sbin:/sbin:$user_path command -v "$w" >/dev/null 2>&1 || continue
        PATH=$user_path command -v "$w" >/dev/null 2>&1 || echo "$c"
    done
}

# The requirements' "check with" column; all of the troubleshooting table.
req=$(table_commands README.md '**Requirements**' 2)
trouble=$(table_commands docs/where-it-runs.md '## Troubleshooting')
is "the requirements' table is found: its code spans ($(echo "$req" | wc -l)), at least 5" "$(echo "$req" | wc -l)" -ge 5
is "the troubleshooting table is found: its code spans ($(echo "$trouble" | wc -l)), at least 10" "$(echo "$trouble" | wc -l)" -ge 10
bad=$(printf '%s\n%s\n' "$req" "$trouble" | not_for_users)
ok "every command they name is in a normal user's PATH" [ -z "$bad" ]
got=$(printf 'swapon --show\ncat /proc/swaps\n' | not_for_users)
if ! PATH=/usr/local/sbin:/usr/sbin:/sbin command -v swapon >/dev/null 2>&1; then
    skip "the check catches a command only root's PATH has (swapon)" "swapon is not installed"
else
    ok "the check catches a command only root's PATH has (swapon)" [ "$got" = "swapon --show" ]
fi

# early FILE: "N NUMBER" for each number of answer N that FILE holds before
# its exercise N: thousands with commas (fault and page counts) and times in
# seconds, as docs/answers.md writes them.
answers_numbers() {
    awk '/^## [0-9]+\. / { n = $2 + 0; next } /^## / { n = 0 } n {
            line = $0
            # (No {m,n}: mawk has none.)
            while (match(line, /[0-9][0-9]?[0-9]?(,[0-9][0-9][0-9])+|[0-9]+\.[0-9][0-9] s/)) {
                m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
                # (No time at all tells nothing.)
                if (m != "0.00 s") print n, m
            }
        }' docs/answers.md | sort -u
}
early() {
    # (One awk for every number: five processes a number made the test
    # take minutes on an emulated machine.)
    answers_numbers | awk 'NR == FNR { n[NR] = $1; num[NR] = $2; k = NR; next }
        { line[FNR] = $0 }
        /^ *[0-9]+\. \*\*/ { e = $0; sub(/^ */, "", e); e += 0; if (!(e in at)) at[e] = FNR }
        END {
            for (i = 1; i <= k; i++) {
                if (!(n[i] in at)) { print n[i] " (no exercise " n[i] ")"; continue }
                for (l = 1; l < at[n[i]]; l++)
                    if (line[l] !~ /^#/ && index(line[l], num[i])) { print n[i] ":" num[i]; break }
            }
        }' - "$1" | sort -u | tr '\n' ' '
}
nnum=$(answers_numbers | wc -l)
got=$(early README.md)
is "the answers' numbers found ($nnum): at least 50" "$nnum" -ge 50
ok "no number of the answers appears in the sheet before its exercise" [ -z "$got" ]
# Planted: exercise 2's read faults in the Goal.
n2=$(answers_numbers | awk '$1 == 2 && $2 ~ /^8,/ { print $2; exit }')
sed "s/^## Goal\$/## Goal\\n\\nAbout $n2 faults./" README.md >"$tmp/early.md"
ok "the check catches exercise 2's read faults ($n2) planted in the Goal" matches " $(early "$tmp/early.md") " "* 2:$n2 *"

# terms FILE: the bold terms of its glossary; before FILE: "TERM LINE" for
# each used before the glossary begins.
terms() {
    awk '/^## Words this sheet uses/ { on = 1; next } on && /^## / { exit } on' "$1" |
        grep -o '\*\*[^*]*\*\*' | tr -d '*`' | sed 's/ [0-9A-Z]* CMD$//; s/ 64M$//'
}
before() {
    g=$(grep -n '^## Words this sheet uses' "$1" | cut -d: -f1)
    terms "$1" | while read -r t; do
        first=$(grep -niw -- "$t" "$1" | head -n 1 | cut -d: -f1)
        [ -n "$first" ] && [ "$first" -lt "${g:-0}" ] && echo "$t:$first"
    done | tr '\n' ' '
}
nterms=$(terms README.md | wc -l)
got=$(before README.md)
is "the glossary's terms found ($nterms): at least 8" "$nterms" -ge 8
ok "the glossary's terms ($(terms README.md | tr '\n' ',')) are first used there or after" [ -z "$got" ]
sed 's/^## Goal$/## Goal\n\nreadahead and zram./' README.md >"$tmp/term.md"
ok "the check catches terms used before the glossary (planted: readahead, zram)" like "$(before "$tmp/term.md")" 'readahead:.*zram:|zram:.*readahead:'

# landing FILE ANCHOR: the part of FILE a link to ANCHOR shows first, from
# its heading to the next heading of any level (a "measured" subsection
# below is a click further and says so); all of FILE without ANCHOR.
landing() {
    awk -v want="$2" '/^```/ { fenced = !fenced }
        !fenced && /^#+ / {
            if (on) exit
            s = tolower($0); sub(/^#+ +/, "", s); sub(/ +$/, "", s)
            gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s)
            if (s in seen) { seen[s]++; s = s "-" seen[s] } else seen[s] = 0
            if (s == want) on = 1
        }
        want == "" || on' "$1"
}
# early_links FILE: "LINE TARGET NUMBER" for each link before the end of the
# exercises whose landing prints a boxed run's faults: the 64 MB box's
# 8,1xx-8,3xx, or the random order's 6x,xxx (with or without the comma, as
# the program prints them), on a line about faults.
early_links() {
    end=$(awk '/^## Exercises/ { on = 1; next } on && /^## / { print NR; exit }' "$1")
    head -n "${end:-0}" "$1" | grep -n -o '\](docs/[^)]*)' | sed 's/\](//; s/)$//' |
    while IFS=: read -r line target; do
        file=${target%%#*} anchor=''
        case $target in *'#'*) anchor=${target#*#} ;; esac
        num=$(landing "$top/$file" "$anchor" | grep -i fault |
            grep -o -E '(^|[^0-9,.])(8,?[1-3][0-9][0-9]|6[0-9],?[0-9][0-9][0-9])([^0-9,]|$)' | tr -dc '0-9,\n' | head -n 1)
        [ -z "$num" ] || echo "$line $target $num"
    done | tr '\n' ' '
}
nlinks=$(awk '/^## Exercises/ { on = 1; next } on && /^## / { exit } { print }' README.md | grep -c '](docs/')
got=$(early_links README.md)
is "links before the end of the exercises found ($nlinks): at least 3" "$nlinks" -ge 3
ok "no link before the end of the exercises lands on a boxed run's faults" [ -z "$got" ]
sed 's|^## Goal$|## Goal\n\nSee [watch it](docs/kernels.md#watch-it-happen--i-step-and-make-plot).|' README.md >"$tmp/link.md"
ok "the check catches a link to a boxed run planted in the Goal" \
    matches "$(early_links "$tmp/link.md")" "*docs/kernels.md#watch-it-happen--i-step-and-make-plot 8*"

# exercises FILE: each exercise as one line, "N<TAB>its text" (lines joined
# by a TAB), from the list under "## Exercises".
exercises() {
    awk '/^## Exercises/ { on = 1; next } on && /^## / { exit }
        on && /^[0-9]+\. \*\*/ { if (t != "") print t; t = $1 "\t" $0; next }
        on && t != "" { t = t "\t" $0 } END { if (t != "") print t }' "$1" | sed 's/^\([0-9]*\)\./\1/'
}
# unboxed FILE: the exercises that run ./swap in a box (they say "box") but
# lack the box command either way (systemd-run, scripts/box run); those
# that run make class, cache-vs-anon or make backends make their boxes
# themselves.
unboxed() {
    exercises "$1" | while IFS="$(printf '\t')" read -r num text; do
        case $text in *'make class'*|*cache-vs-anon*|*'make backends'*) continue ;; esac
        case $text in *box*|*Box*) ;; *) continue ;; esac
        echo "$text" | grep -q 'systemd-run --user --scope -p MemoryMax=[0-9]*M \./swap' &&
            echo "$text" | grep -q 'scripts/box run [0-9]*M \./swap' || echo "$num"
    done | tr '\n' ' '
}
nex=$(exercises README.md | wc -l)
got=$(unboxed README.md)
is "exercises found ($nex): at least 14" "$nex" -ge 14
ok "every exercise that runs in a box writes the box command out, both ways" [ -z "$got" ]
sed '/^ *scripts\/box run 64M \.\/swap -o reverse/d; /^ *scripts\/box run 64M \.\/swap -o random/d' README.md >"$tmp/box.md"
ok "the check catches exercise 4 without its scripts/box run lines" matches " $(unboxed "$tmp/box.md") " "* 4 *"

# unmarked FILE: the exercises with a sudo command whose title does not say
# that they need root.
unmarked() {
    exercises "$1" | while IFS="$(printf '\t')" read -r num text; do
        case $text in *sudo\ *) ;; *) continue ;; esac
        title=${text#*\*\*} title=${title%%\*\**}
        case $title in *'needs root'*) ;; *) echo "$num" ;; esac
    done | tr '\n' ' '
}
nroot=$(exercises README.md | grep -c 'sudo ')
got=$(unmarked README.md)
is "exercises that run sudo found ($nroot): at least 2" "$nroot" -ge 2
ok "the exercises that run sudo say in their title that they need root" [ -z "$got" ]
sed 's/^\(14\. \*\*Where the pages go\) (needs root[^*]*\*\*/\1.**/' README.md >"$tmp/root.md"
ok "the check catches exercise 14's title without 'needs root'" matches " $(unmarked "$tmp/root.md") " "* 14 *"

# Run the requirements' checks as a normal user: a real one when this is
# root (as_student), else this user.  (Last, with the refusal below: the
# part that takes a turn.)
runner=''
if is_root; then
    # (Its turn first: the user's processes would be other users' to a
    # test that looks for them meanwhile, as tests/22's backends does.)
    swap_lock
    # shellcheck disable=SC2119 # a student, not a victim
    make_student && runner=as_student
fi
if is_root && [ -z "$runner" ]; then
    skip "the requirements' checks run as a normal user" "cannot make a user: $(cat "$tmp/useradd.err" 2>/dev/null)"
else
    bad=''
    while read -r c; do
        # shellcheck disable=SC2016 # run by that sh
        ${runner:+$runner} env PATH=$user_path sh -c "$c" >"$out" 2>"$err"
        st=$?
        if [ $st -eq 127 ] || grep -q 'not found' "$err"; then bad="$bad [$c: exit $st, $(head -c 100 "$err")]"; fi
    done <<EOF
$req
EOF
    ok "the requirements' checks run as a normal user${runner:+ ($student)}, none 'not found'" [ -z "$bad" ]
fi

# The refusal while other users' processes run: the sheet names the make
# spelling, and so does the script itself, run for real as root beside a
# normal user's process.
ok "the sheet names 'make backends YES=1'" has README.md 'make backends YES=1'
if ! is_root; then
    skip "backends, refusing beside another user's process, names 'make backends YES=1'" "not root"
elif ! how=$(sh "$box" how); then
    # (backends refuses first for want of a box, a container's own cgroup.)
    box_skip "backends, refusing beside another user's process, names 'make backends YES=1'" "no way to make a memory box: ${how#none: }"
elif [ -z "$runner" ]; then
    skip "backends, refusing beside another user's process, names 'make backends YES=1'" "cannot make a user to run a process"
else
    # (Ended with the user, at the cleanup: kill -KILL -1 as them.)
    as_student sleep 60 2>/dev/null &
    wait_max=50 wait_for pgrep -u "$student" -x sleep >/dev/null
    run sh scripts/backends zswap
    ok "backends, refusing beside another user's process, names 'make backends YES=1'" failed_saying 1 'make backends YES=1'
fi
done_testing
