#!/bin/sh
# The lab sheet as a student meets it, where a machine can check it:
# every command in the README's requirements table runs as a normal user,
# and every command named in it or in the troubleshooting table
# (docs/where-it-runs.md) is found in a normal user's PATH (no /sbin); no
# number of an exercise's answer (docs/answers.md) appears in the sheet
# before that exercise; every term of the sheet's glossary ("Words this
# sheet uses") is first used there or after.  Each checker is also shown
# to catch a planted fault.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 8
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
if [ "$(echo "$req" | wc -l)" -ge 5 ] && [ "$(echo "$trouble" | wc -l)" -ge 10 ]; then
    pass "the tables are found: $(echo "$req" | wc -l) and $(echo "$trouble" | wc -l) code spans"
else
    fail "the tables are found" "requirements: $req" "troubleshooting: $trouble"
fi
bad=$(printf '%s\n%s\n' "$req" "$trouble" | not_for_users)
if [ -z "$bad" ]; then pass "every command they name is in a normal user's PATH"
else fail "every command they name is in a normal user's PATH" "only with sbin: $bad"; fi
got=$(printf 'swapon --show\ncat /proc/swaps\n' | not_for_users)
if ! PATH=/usr/local/sbin:/usr/sbin:/sbin command -v swapon >/dev/null 2>&1; then
    skip "the check catches a command only root's PATH has (swapon)" "swapon is not installed"
elif [ "$got" = "swapon --show" ]; then
    pass "the check catches a command only root's PATH has (swapon)"
else
    fail "the check catches a command only root's PATH has (swapon)" "got '$got'"
fi

# Run the requirements' checks as a normal user: a real one when this is
# root (as_student), else this user.
runner=''
if is_root; then
    # (Its turn first: the user's processes would be other users' to a
    # test that looks for them meanwhile, as tests/22's backends does.)
    swap_lock
    # shellcheck disable=SC2119 # a student, not a victim
    make_student && runner=as_student
fi
if is_root && [ -z "$runner" ]; then
    fail "the requirements' checks run as a normal user" "cannot make a user: $(cat "$tmp/useradd.err")"
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
    if [ -z "$bad" ]; then pass "the requirements' checks run as a normal user${runner:+ ($student)}, none 'not found'"
    else fail "the requirements' checks run as a normal user, none 'not found'" "$bad"; fi
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
    answers_numbers | while read -r n num; do
        at=$(grep -nE "^ *$n\. \*\*" "$1" | head -n 1 | cut -d: -f1)
        [ -n "$at" ] || { echo "$n (no exercise $n)"; continue; }
        head -n $((at - 1)) "$1" | grep -v '^#' | grep -qF -- "$num" && echo "$n:$num"
    done | sort -u | tr '\n' ' '
}
nnum=$(answers_numbers | wc -l)
got=$(early README.md)
if [ "$nnum" -ge 50 ] && [ -z "$got" ]; then pass "no number of the $nnum in the answers appears in the sheet before its exercise"
else fail "no number of an answer appears in the sheet before its exercise ($nnum numbers)" "early: $got"; fi
# Planted: exercise 2's read faults in the Goal.
n2=$(answers_numbers | awk '$1 == 2 && $2 ~ /^8,/ { print $2; exit }')
sed "s/^## Goal\$/## Goal\\n\\nAbout $n2 faults./" README.md >"$tmp/early.md"
case " $(early "$tmp/early.md") " in
    *" 2:$n2 "*) pass "the check catches exercise 2's read faults ($n2) planted in the Goal" ;;
    *) fail "the check catches exercise 2's read faults planted in the Goal" "got '$(early "$tmp/early.md")'" ;;
esac

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
if [ "$nterms" -ge 8 ] && [ -z "$got" ]; then pass "the glossary's $nterms terms ($(terms README.md | tr '\n' ',')) are first used there or after"
else fail "the glossary's terms are first used there or after ($nterms terms)" "used before: $got"; fi
sed 's/^## Goal$/## Goal\n\nreadahead and zram./' README.md >"$tmp/term.md"
case $(before "$tmp/term.md") in
    *readahead:*zram:*|*zram:*readahead:*) pass "the check catches terms used before the glossary (planted: readahead, zram)" ;;
    *) fail "the check catches terms used before the glossary" "got '$(before "$tmp/term.md")'" ;;
esac
done_testing
