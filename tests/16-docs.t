#!/bin/sh
# The lab sheet and its docs: every relative link in README.md and docs/*.md
# leads to a file that exists and, when it names an anchor, to a heading
# there (GitHub's rule for anchors); every file in docs/ is reachable from
# the README; every exercise has its answer; nothing points outside the
# project.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 8

cd "$top" || exit 1
pages="README.md $(ls docs/*.md)"

# anchors FILE: the anchor of each heading, as GitHub makes it: lower case,
# punctuation dropped but for - and _, each space a -, and -1, -2, ... for
# a repeated one.  Headings inside code blocks are not headings.
anchors() {
    awk '/^```/ { fenced = !fenced; next }
        fenced || !/^#+ / { next }
        {
            s = tolower($0); sub(/^#+ +/, "", s); sub(/ +$/, "", s)
            gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s)
            if (s in seen) { seen[s]++; s = s "-" seen[s] } else seen[s] = 0
            print s
        }' "$1"
}

# links FILE: each relative link target, one a line, outside code.
links() {
    awk '/^```/ { fenced = !fenced; next }
        fenced || /^(    |\t)/ { next }
        {
            line = $0; gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^)]+\)/)) {
                t = substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
                if (t !~ /^[a-z]+:/) print t
            }
        }' "$1"
}

bad='' nlinks=0
for page in $pages; do
    dir=$(dirname "$page")
    for target in $(links "$page"); do
        nlinks=$((nlinks + 1))
        file=${target%%#*} anchor=
        case $target in *#*) anchor=${target#*#} ;; esac
        if [ -z "$file" ]; then path=$page; else path=$dir/$file; fi
        if [ ! -e "$path" ]; then
            bad="$bad $page:$target(no file)"
        elif [ -n "$anchor" ] && ! anchors "$path" | grep -qxF "$anchor"; then
            bad="$bad $page:$target(no heading)"
        fi
    done
done
is "the docs' relative links found ($nlinks): at least 20" "$nlinks" -ge 20
ok "every relative link resolves, file and anchor" [ -z "$bad" ]

# The checker itself: a made-up anchor and a made-up file are caught.
# shellcheck disable=SC2016 # the backquotes are Markdown
printf '# A `b` c: d\n\n[x](#a-b-c-d) [y](#nope) [z](missing.md)\n' >"$tmp/t.md"
got=$(for t in $(links "$tmp/t.md"); do
    case $t in '#'*) anchors "$tmp/t.md" | grep -qxF "${t#\#}" || echo "$t" ;;
        *) [ -e "$tmp/$t" ] || echo "$t" ;; esac; done | tr '\n' ' ')
ok "the checker catches a wrong anchor and a missing file" [ "$got" = "#nope missing.md " ]

orphans=''
for f in docs/*.md; do
    links README.md | grep -q "^$f" || orphans="$orphans $f"
done
ok "every file in docs/ is linked from the README" [ -z "$orphans" ]

ex=$(awk '/^## Exercises/ { on = 1; next } /^## / { on = 0 } on && /^[0-9]+\. \*\*/' README.md | wc -l)
ans=$(grep -cE '^## [0-9]+\. ' docs/answers.md)
is "exercises in the README ($ex): at least 6" "$ex" -ge 6
is "every exercise has an answer in docs/answers.md ($ans)" "$ans" -eq "$ex"

lines=$(wc -l <README.md)
is "the README is a lab sheet: at most about 300 lines ($lines)" "$lines" -le 320

# shellcheck disable=SC2086 # one word a file
out_of_tree=$(grep -nE '\.\./shared|\.\./\.\.' $pages)
ok "no path outside the project" [ -z "$out_of_tree" ]
done_testing
