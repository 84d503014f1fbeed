#!/bin/sh
# scripts/plot: real runs of swap -i become one well-formed SVG that draws
# RSS, swap and major faults for every run, named by its file, and so do
# runs saved as records (FILE.csv), as their text would; input that is not
# swap's output is refused with the file and line, and no partial SVG.
# make plot's way (lab plot) writes the figure from its runs' records, page
# maps and heat maps too; no other script reads swap's text; the committed
# figures parse.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 60

plot=$top/scripts/plot
# Well-formedness needs xmllint; without it those checks skip, and the
# others say they did not check it.
if command -v xmllint >/dev/null 2>&1; then
    xml=checked
    wellformed() { xmllint --noout "$1" 2>"$err"; }
else
    xml="not checked: no xmllint"
    wellformed() { :; }
fi
xml_ok() {
    if [ "$xml" != checked ]; then skip "$1" "xmllint is not installed (Debian: libxml2-utils)"
    elif wellformed "$2"; then pass "$1"
    else fail "$1" "$(cat "$err")"; fi
}

# series FILE CLASS: how many polylines of that series the SVG draws.
series() { grep -c "<polyline class=\"$2\"" "$1"; }
# drawn LEGEND N: lab plot's figure is well-formed, names the run LEGEND
# and draws N swap lines; seconds_across: its axis is in seconds, and the
# end of both runs' write steps is marked in both panels.
# shellcheck disable=SC2317 # called by ok
drawn() { wellformed "$made" && grep -q "$1" "$made" && [ "$(series "$made" swap)" -eq "$2" ]; }
# shellcheck disable=SC2317 # called by ok
seconds_across() {
    grep -q '>seconds since the start: writing, then reading back</text>' "$made" &&
        [ "$(grep -c '<line class="stepend"' "$made")" -eq 4 ]
}

timeout -k 5 "$run_max" "$swap" -i 8M 64M >"$tmp/plain.txt"
cp "$tmp/plain.txt" "$tmp/other run.txt"
run sh "$plot" "$tmp/plain.txt" "$tmp/other run.txt"
cp "$out" "$tmp/two.svg"
is "two plain runs: exit status 0" "$rc" -eq 0
ok "two plain runs: nothing on stderr" [ ! -s "$err" ]
xml_ok "two plain runs: well-formed XML" "$tmp/two.svg"
is "two runs: RSS drawn for each" "$(series "$tmp/two.svg" rss)" -eq 2
is "two runs: swap drawn for each" "$(series "$tmp/two.svg" swap)" -eq 2
is "two runs: major faults drawn for each" "$(series "$tmp/two.svg" faults)" -eq 2
# Every line of the run is a point: 3 + 2 * 7 progress lines = 17.
pts=$(grep '<polyline class="rss"' "$tmp/two.svg" | head -n 1 | sed 's/.*points="\([^"]*\)".*/\1/' | wc -w)
is "a point per line of the run ($(wc -l <"$tmp/plain.txt") lines)" "$pts" -eq "$(wc -l <"$tmp/plain.txt")"
ok "the legend names the first run by its file" has "$tmp/two.svg" '>plain</text>'
ok "the legend names the second run by its file" has "$tmp/two.svg" '>other run</text>'

# refused DESC LINE-NUMBER FILE: exit 1, one line naming FILE:LINE, no SVG.
refused() {
    run sh "$plot" "$tmp/plain.txt" "$3"
    ok "$1: refused, '$(cat "$err")'" refused_saying 1 "^plot: $3:$2: "
}
printf 'hello\nworld\n' >"$tmp/garbage"
refused "garbage" 1 "$tmp/garbage"
sed '5s/major faults/minor faults/' "$tmp/plain.txt" >"$tmp/mangled"
refused "a mangled line 5" 5 "$tmp/mangled"
head -n 6 "$tmp/plain.txt" >"$tmp/cut"
refused "a run cut short after line 6" 6 "$tmp/cut"
awk 'NR == 2 { held = $0; next } { print } NR == 3 { print held }' "$tmp/plain.txt" >"$tmp/backwards"
refused "lines out of order (line 3 goes back)" 3 "$tmp/backwards"

# -l's lines: a panel of the cost of one access, a bar and a dot per kind
# and step; such a line where no step ended, or mangled, is refused.
timeout -k 5 "$run_max" "$swap" -l -i 16M 32M >"$tmp/timed.txt"
run sh "$plot" "$tmp/timed.txt" "$tmp/plain.txt"
kinds=$(grep -c '^  [a-z]* fault ' "$tmp/timed.txt")
ok "a run with -l: exit status 0, nothing on stderr" clean
xml_ok "a run with -l: well-formed XML" "$out"
ok "a run with -l: the cost panel" has "$out" 'the cost of one access'
is "a run with -l: a bar for each of its $kinds kind lines" "$(grep -c '<rect class="share"' "$out")" -eq "$kinds"
is "a run with -l: a dot for each of its $kinds kind lines" "$(grep -c '<circle class="cost"' "$out")" -eq "$kinds"
ok "runs without -l: no cost panel" not has "$tmp/two.svg" 'the cost of one access'
awk 'NR == 2 { print "  minor fault    100  median 1.0 µs  99th 2.0 µs  max 3.0 µs  sum 100 µs    1%" } { print }' "$tmp/timed.txt" >"$tmp/early"
refused "a line of -l before any step ended" 2 "$tmp/early"
l=$(grep -n '^  [a-z]* fault ' "$tmp/timed.txt" | head -n 1 | cut -d: -f1)
sed "${l}s/median/middle/" "$tmp/timed.txt" >"$tmp/badl"
refused "a mangled line of -l" "$l" "$tmp/badl"

# -l -i: a heat map per run, a cell per interval, kind and power of two
# that holds accesses; none for a run without; a mangled line refused.
cells=$(awk '/^  heat / { n += NF - 5; for (i = 6; i <= NF; i++) if ($i == 0) n-- } END { print n + 0 }' "$tmp/timed.txt")
run sh "$plot" "$tmp/timed.txt" "$tmp/plain.txt"
is "a run with -l -i: exit status 0" "$rc" -eq 0
is "a run with -l -i: its heat lines hold non-zero counts ($cells)" "$cells" -gt 0
is "a run with -l -i: a cell for each of its $cells non-zero counts" "$(grep -c '<rect class="heat"' "$out")" -eq "$cells"
is "a run with -l -i: one heat map, none for the run without" "$(grep -c 'one access, how long (swap -l -i)' "$out")" -eq 1
l=$(grep -n '^  heat ' "$tmp/timed.txt" | head -n 1 | cut -d: -f1)
sed "${l}s/ns:/ns: 1/" "$tmp/timed.txt" >"$tmp/badh"
refused "a heat map line with a count too many" "$l" "$tmp/badh"
# -l's numbers in a run's records: the same cost panel as its text's, the
# same share of each step for each kind.
mkdir "$tmp/l"
timeout -k 5 "$run_max" "$swap" -l -i 16M --export-csv="$tmp/l/timed.csv" 32M >"$tmp/l/timed.txt"
shares() { sh "$plot" "$1" | sed -n 's/^<rect class="share".*<title>\(.*\)<\/title>.*/\1/p'; }
from_text=$(shares "$tmp/l/timed.txt")
from_csv=$(shares "$tmp/l/timed.csv")
is "a saved run with -l: a bar for each of its $(grep -c '^  [a-z]* fault ' "$tmp/l/timed.txt") kind lines" \
    "$(echo "$from_csv" | grep -c .)" -eq "$(grep -c '^  [a-z]* fault ' "$tmp/l/timed.txt")"
ok "a saved run with -l: each kind's share of each step as its text says ($(echo "$from_csv" | sed 's/.*fault, //' | tr '\n' ' '))" \
    [ "$from_csv" = "$from_text" ]
# -v's lines before the report, all of them, are not the report.
timeout -k 5 "$run_max" "$swap" -v -i 16M 32M >"$tmp/v.txt" 2>&1
run sh "$plot" "$tmp/v.txt"
ok "a run with -v: drawn, its $(grep -c '^[a-zA-Z -]*: ' "$tmp/v.txt") lines of -v passed over" clean
run sh "$plot" -x weeks "$tmp/plain.txt"
is "-x weeks: exit status 2" "$rc" -eq 2
ok "-x weeks: nothing on stdout" [ ! -s "$out" ]
ok "-x weeks: refused in one line, '$(cat "$err")'" [ "$(cat "$err")" = "plot: -x needs mb or time (got 'weeks')" ]

# Saved runs (swap --export-csv, a student's FILE.csv): a series each, named
# by its file less .csv, and each drawn as the text of the same run is.
mkdir "$tmp/text"
"$swap" -i 8M --export-csv="$tmp/plain.csv" 64M >"$tmp/text/plain.txt"
"$swap" -i 4M --export-csv="$tmp/run 2.csv" 32M >/dev/null
run sh "$plot" "$tmp/plain.csv" "$tmp/run 2.csv"
cp "$out" "$tmp/saved.svg"
# shellcheck disable=SC2317 # called by ok
clean_run() { [ "$rc" -eq 0 ] && [ ! -s "$err" ]; }
ok "two saved runs (.csv): exit status 0, nothing on stderr" clean_run
xml_ok "two saved runs: well-formed XML" "$tmp/saved.svg"
is "two saved runs: RSS, swap and major faults, a series of each per file" \
    "$(series "$tmp/saved.svg" rss):$(series "$tmp/saved.svg" swap):$(series "$tmp/saved.svg" faults)" = 2:2:2
# shellcheck disable=SC2317 # called by ok
both_named() { has "$tmp/saved.svg" '>plain</text>' && has "$tmp/saved.svg" '>run 2</text>'; }
ok "two saved runs: the legend names each by its file, less .csv" both_named
# A start slower than the first part's writing (its seconds are the
# mmap's: a tracer or a busy machine): still one run, drawn from 0.
awk -F , -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i } NR == 2 { $c = "0.500000000" } { print }' \
    "$tmp/plain.csv" >"$tmp/slow start.csv"
run sh "$plot" "$tmp/slow start.csv"
ok "a saved run whose mmap took longer than its first part's writing: drawn, nothing on stderr" clean_run
# (plain.csv alone, and the text of the same run alone: the same figure.)
sh "$plot" "$tmp/plain.csv" >"$tmp/from-csv.svg" 2>&1
sh "$plot" "$tmp/text/plain.txt" >"$tmp/from-text.svg" 2>&1
ok "a saved run is drawn as the text of the same run is (the same SVG)" cmp -s "$tmp/from-csv.svg" "$tmp/from-text.svg"
# -m and -l -i in a saved run: the page map and the heat map its text
# gives, cell for cell (the records carry the strip and the counts).
mkdir "$tmp/mh"
"$swap" -m -l -i 8M --export-csv="$tmp/mh/run.csv" 32M >"$tmp/mh/run.txt"
cells_of() { sh "$plot" "$1" 2>&1 | grep -E "^<rect class=\"$2\""; }
# shellcheck disable=SC2317 # called by ok
same_cells() { [ -s "$1" ] && cmp -s "$1" "$2"; }
cells_of "$tmp/mh/run.csv" map >"$tmp/mh/csv.map"
cells_of "$tmp/mh/run.txt" map >"$tmp/mh/txt.map"
ok "a saved run with -m: its page map as its text's ($(grep -c . "$tmp/mh/csv.map") cells)" \
    same_cells "$tmp/mh/csv.map" "$tmp/mh/txt.map"
cells_of "$tmp/mh/run.csv" heat >"$tmp/mh/csv.heat"
cells_of "$tmp/mh/run.txt" heat >"$tmp/mh/txt.heat"
ok "a saved run with -l -i: its heat map as its text's ($(grep -c . "$tmp/mh/csv.heat") cells)" \
    same_cells "$tmp/mh/csv.heat" "$tmp/mh/txt.heat"
# (A strip of other marks, a count too few: refused, at the record.)
awk 'NR == 3 { sub(/,"#/, ",\"x") } { print }' "$tmp/mh/run.csv" >"$tmp/mh/marks.csv"
refused "a .csv whose page map holds another mark" 3 "$tmp/mh/marks.csv"
awk 'NR == 3 { sub(/ [0-9]+"/, "\"") } { print }' "$tmp/mh/run.csv" >"$tmp/mh/few.csv"
refused "a .csv with 30 heat counts of 31" 3 "$tmp/mh/few.csv"
# A class: thirty saved runs (copies of one, under thirty names), drawn
# with every run named, each label inside the figure and clear of every
# other, and each run told apart by its colour and its mark.
mkdir "$tmp/class"
for s in ada ben cleo dan eva finn gus hana ivan jo kai lena max nora omar \
    pia quinn rosa sam tess uma vic wren xena yusuf zoe amelie bruno chiara dmitri; do
    cp "$tmp/plain.csv" "$tmp/class/$s.csv"
done
run sh "$plot" -x time "$tmp/class"/*.csv
cp "$out" "$tmp/class.svg"
ok "thirty saved runs: exit status 0, nothing on stderr" clean_run
# labels SVG: each <text> with its x, y and words, one a line; the height.
labels() { sed -n 's/^<text x="\([0-9.]*\)" y="\([0-9.]*\)"[^>]*>\([^<]*\)<.*/\1 \2 \3/p' "$1"; }
height() { sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$1"; }
named=$(labels "$tmp/class.svg" | awk '{ print $3 }' | grep -cxE 'ada|ben|cleo|dan|eva|finn|gus|hana|ivan|jo|kai|lena|max|nora|omar|pia|quinn|rosa|sam|tess|uma|vic|wren|xena|yusuf|zoe|amelie|bruno|chiara|dmitri')
is "thirty saved runs: each named in the legend ($named)" "$named" -eq 30
low=$(labels "$tmp/class.svg" | awk -v h="$(height "$tmp/class.svg")" '$2 > h - 10 { print }')
ok "thirty saved runs: every label inside the figure${low:+ (not: $(echo "$low" | tr "\n" " "))}" [ -z "$low" ]
# (A run's name closer than a line of type, and a name's width, to any
# other label is written over it.)
# shellcheck disable=SC2016 # awk's
crowded=$(labels "$tmp/class.svg" | awk '
    { x[NR] = $1; y[NR] = $2; w = $0; sub(/^[^ ]* [^ ]* /, "", w); t[NR] = w }
    END {
        for (i = 1; i <= NR; i++) {
            if (t[i] !~ /^[a-z]+$/ || t[i] == "reading" || t[i] == "writing") continue
            for (j = 1; j <= NR; j++)
                if (j != i && (y[i] - y[j])^2 < 30^2 && (x[i] - x[j])^2 < 150^2) print t[i] " on " t[j]
        }
    }')
ok "thirty saved runs: no run's name over another label${crowded:+ (not: $(echo "$crowded" | tr "\n" ","))}" [ -z "$crowded" ]
# swatches SVG: each legend entry's colour and the shape of its mark (a
# polygon's, by its corners).
swatches() {
    awk '/<line [^>]*stroke-width="6"/ { if (c != "") print c, "none"; c = $0; sub(/.*stroke="/, "", c); sub(/".*/, "", c); next }
        c != "" && /class="mark"/ { p = $0; sub(/fill=.*/, "", p); print c, $1, gsub(/,/, "", p); c = ""; next }
        c != "" { print c, "none"; c = "" }' "$1"
}
kinds=$(swatches "$tmp/class.svg" | sort -u | wc -l)
is "thirty saved runs: a colour and a mark for each, no two alike ($kinds)" "$kinds" -eq 30
marks=$(grep -c 'class="mark"' "$tmp/class.svg")
is "thirty saved runs: the lines of runs past the 7th marked too ($marks marks, 23 in the legend)" "$marks" -ge $((23 + 23 * 3))
# Files that are not swap's records: one line, exit 1, no SVG.
: >"$tmp/empty.csv"
run sh "$plot" "$tmp/plain.txt" "$tmp/empty.csv"
ok "an empty .csv: refused, '$(cat "$err")'" refused_saying 1 "^plot: $tmp/empty.csv: empty, "
printf 'run,outcome\r\n1,completed\r\n' >"$tmp/class.csv"
refused "a .csv of other columns (a class's table)" 1 "$tmp/class.csv"
head -n 5 "$tmp/plain.csv" >"$tmp/cut.csv"
refused "a .csv that ends before its last read record" 5 "$tmp/cut.csv"

# The one reader of swap's text is plot's, for runs saved as text: no
# other script uses report_awk or report_line (the scripts read records).
# shellcheck disable=SC2016 # a pattern, not an expansion
readers=$(grep -lE 'report_awk|report_line|report\(\$0\)' "$top"/scripts/* | sed "s|^$top/||" |
    grep -vx -e scripts/plot -e scripts/report | tr '\n' ' ')
ok "no script but plot reads swap's text${readers:+ (not: $readers)}" [ -z "$readers" ]

# The committed figures.
bad='' nfig=0
for f in "$top"/docs/*.svg; do
    [ -e "$f" ] || continue
    nfig=$((nfig + 1))
    wellformed "$f" || bad="$bad ${f#"$top"/}"
done
is "committed figures in docs/ ($nfig): at least 2" "$nfig" -ge 2
if [ "$xml" != checked ]; then skip "the committed figures in docs/ are well-formed" "xmllint is not installed"
else ok "the committed figures in docs/ are well-formed" [ -z "$bad" ]; fi

# make plot's way: a plain and a boxed run, drawn.
if ! { how=$(sh "$box" how) && want_swap; }; then
    why=${swap_why:-no way to make a memory box: ${how#none: }}
    for t in "lab plot: exit status 0" "lab plot: a boxed run drawn" "lab plot: a page map and a heat map per run" "lab plot: RSS held at the box" "lab plot: seconds" "lab plot: the boxed read wider"; do
        box_skip "$t" "$why"
    done
    done_testing
fi
# (small_box: the lesson's proportions at less than its size.)
small_box
# (OUT in a folder the one who asked may write: under sudo, hers.)
asker_out || fail "a folder for the figure, as UID $run_uid" "cannot make one in her lab folder"
made=${asker_tmp:-$tmp}/made.svg
run env BOX="${box_mb}M" SIZE="${run_mb}M" AXIS=time sh "$lab" plot "$made" "$swap" -m -l -i "${box_mb}M" "${run_mb}M"
is "lab plot: exit status 0" "$rc" -eq 0
[ "$rc" -eq 0 ] || show_run >&2
lim=$(runner_limit_mb)
if [ -n "$lim" ] && [ "$lim" -lt "$run_mb" ]; then
    # The runner is the box: one run, named after its limit.
    ok "lab plot in a runner limited to $lim MB: the one run under that limit, drawn (XML $xml)" drawn ">$lim MB limit</text>" 1
    skip "lab plot: a page map and a heat map per run" "this runner is itself limited to $lim MB: no plain run"
    for t in "lab plot: the boxed RSS line peaks below the plain one" "lab plot: the axis in seconds" "lab plot: the boxed read drawn wider"; do
        skip "$t" "this runner is itself limited to $lim MB: no plain run"
    done
    done_testing
fi
ok "lab plot: the plain and the ${box_mb}M box run drawn (XML $xml)" drawn ">${box_mb}M box</text>" 2
# (make plot's PLOT='-m -l': from the runs' records, the panels of each.)
panels="$(grep -c '>page map: ' "$made") page maps, $(grep -c '>one access, how long (swap -l -i): ' "$made") heat maps"
is "lab plot -m -l: a page map and a heat map per run ($panels)" "$panels" = "2 page maps, 2 heat maps"
# The boxed RSS line stays under the plain one: its highest point (smallest
# y) is lower on the page.
top_y() { grep "<polyline class=\"rss\"" "$made" | sed -n "$1p" | sed 's/.*points="\([^"]*\)".*/\1/' |
    tr ' ' '\n' | awk -F, 'NR == 1 || $2 < m { m = $2 } END { print int(m) }'; }
is "lab plot: the boxed RSS line peaks below the plain one" "$(top_y 2)" -gt "$(top_y 1)"
# (make plot's axis.)  Seconds across: the read step of each run drawn
# from where its write step ends (its dashed line) to its last point.
ok "lab plot, AXIS=time: the axis in seconds, each run's write step's end marked" seconds_across
read_width() {
    e=$(grep '<line class="stepend"' "$made" | sed -n "$((2 * $1 - 1))p" | sed 's/.* x1="\([0-9.]*\)".*/\1/')
    grep "<polyline class=\"rss\"" "$made" | sed -n "$1p" | sed 's/.*points="\([^"]*\)".*/\1/' |
        tr ' ' '\n' | tail -n 1 | awk -F, -v e="$e" '{ printf "%d\n", $1 - e }'
}
is "lab plot, AXIS=time: the boxed read step drawn wider ($(read_width 2) px) than the plain one ($(read_width 1) px)" "$(read_width 2)" -gt "$(read_width 1)"
done_testing
