#!/bin/sh
# swap --format=csv|json and --export-csv|--export-json FILE: a record per
# line of the text, read by Python's csv and json modules (skipped without
# python3); the numbers those of the text lines of the same run (the text
# on stdout, the records in files), after the text's rounding; -m's and
# -l's columns only when asked for, and as their lines say (-m's strip
# the text's, -l -i's heat counts its heat lines'); a boxed run's
# rows show the swapping; a bad format is one line and exit 2; the text,
# the default, unchanged.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 51

base='step,bytes,rss_kb,swap_kb,major_faults,minor_faults,seconds,order'
map_cols='pages_in_ram,pages_in_swap,pages_untouched,page_map'
heat_cols='no_fault_heat,minor_fault_heat,major_fault_heat'
lat_cols=''
for k in no_fault minor_fault major_fault; do
    for s in count median_ns p99_ns max_ns total_ns; do lat_cols=$lat_cols${lat_cols:+,}${k}_$s; done
done
page=$(getconf PAGESIZE)
n16=$((16777216 / page))
crlf=$(printf '\r')

# --------------------------------------------------------- bad input
run "$swap" --format=xml
ok "--format=xml: exit 2, nothing on stdout, one line naming it" refused_saying 2 "^swap: bad format 'xml'"
run "$swap" --format= 4M
ok "--format= (empty): exit 2, one line" refused_saying 2 "^swap: bad format ''"
run "$swap" 4M --format
ok "--format with no FORMAT: exit 2, one line" refused_saying 2 "^swap: option '--format' needs a FORMAT"
run "$swap" 4M --export-json
ok "--export-json with no FILE: exit 2, one line" refused_saying 2 "^swap: option '--export-json' needs a FILE"
run "$swap" --export-csv="$tmp/no/such/run.csv" 4M
ok "--export-csv into a folder that is not there: exit 1, nothing on stdout, one line naming the file" \
    refused_saying 1 "^swap: $tmp/no/such/run.csv: No such file or directory$"

# ------------------------------------------------ the text, unchanged
# A run's text with its numbers blotted out (each run of digits a 9, each
# run of blanks one): what stays is the lines, their words and order.
shape() { sed 's/[0-9][0-9]*/9/g; s/  */ /g' "$1"; }
run "$swap" -m -i 4M 16M
shape "$out" >"$tmp/default"
run "$swap" --format=text -m -i 4M 16M
shape "$out" >"$tmp/text"
ok "--format=text: the default's lines" cmp -s "$tmp/default" "$tmp/text"
run "$swap" -m -i 4M --export-csv="$tmp/x.csv" --export-json="$tmp/x.json" 16M
shape "$out" >"$tmp/exported"
ok "--export-csv and --export-json: exit 0, nothing on stderr" clean
ok "--export-csv and --export-json: stdout the default's lines" cmp -s "$tmp/default" "$tmp/exported"
run "$swap" --format=text 16M
# (Each line less its numbers in their columns: its label in 24.)
nums=' RSS [ 0-9]{6} MB   swap [ 0-9]{6} MB   major faults [ 0-9]{6}   [0-9]+\.[0-9]{2} s$'
ok "--format=text 16M: the three lines in the original columns" \
    [ "$(sed -E "s/$nums//" "$out")" = "$(printf '%-24s\n' start: 'after writing 16 MB:' 'after reading it back:')" ]

# ------------------------------------------------ records on stdout
run "$swap" --format=csv 16M
ok "--format=csv: exit 0, nothing on stderr" clean
ok "--format=csv: the header row, CRLF-ended, and no -m or -l column" [ "$(head -n 1 "$out")" = "$base$crlf" ]
is "--format=csv 16M: the header and three rows, nothing else" "$(wc -l <"$out")" -eq 4
run "$swap" -m --format=csv 16M
ok "-m --format=csv: -m's columns, no -l's" [ "$(head -n 1 "$out")" = "$base,$map_cols$crlf" ]
run "$swap" -m -l --format=csv 16M
ok "-m -l --format=csv: -m's columns, then -l's" [ "$(head -n 1 "$out")" = "$base,$map_cols,$lat_cols$crlf" ]
run "$swap" -l -i 4M --format=csv 16M
ok "-l -i 4M --format=csv: -l's columns, then the heat's" [ "$(head -n 1 "$out")" = "$base,$lat_cols,$heat_cols$crlf" ]
run "$swap" -v -m -l -i 4M --format=csv 16M
ok "-v -m -l -i 4M --format=csv: exit 0" [ "$rc" -eq 0 ]
ok "-v --format=csv: -v's lines on stderr" has "$err" '^page size: +[0-9]+ bytes$'
ok "-v -m -l -i 4M --format=csv: stdout the header and 9 rows, no line of text" \
    [ "$(grep -cE '^(start|write|read),' "$out")/$(wc -l <"$out")" = 9/10 ]

# -------------------------------------------------------- read as data
# records FORMAT FILE NAME: FILE read by Python's csv (strict) or json
# module; into $tmp/NAME.rows its header (comma-separated) and a line per
# record, its values separated by blanks, seconds with nine decimals, "-"
# for none, page_map's blanks as "_", the heat's counts joined by "/";
# says on stderr what is wrong: a line not ended as the format says, a row
# of another length or other keys, a number that is not one, a strip or
# counts not as the page says (in CSV quoted, and nothing else).
py=$(command -v python3) || py=''
cat >"$tmp/read.py" <<'EOF'
import csv, json, re, sys

fmt, path = sys.argv[1], sys.argv[2]
raw = open(path, "rb").read()

def bad(why):
    sys.exit("%s: %s" % (path, why))

def value(name, v, from_csv):
    if v is None or (from_csv and v == ""):
        return None
    if name == "page_map":
        if not isinstance(v, str) or not re.fullmatch(r"[# .:]+", v):
            bad("page_map is not a strip of marks: %r" % v)
        return v.replace(" ", "_")
    if name.endswith("_heat"):
        if from_csv:
            if not re.fullmatch(r"[0-9]+( [0-9]+)*", v):
                bad("%s is not counts separated by blanks: %r" % (name, v))
            v = [int(x) for x in v.split(" ")]
        elif not isinstance(v, list) or any(type(x) is not int for x in v):
            bad("%s is not an array of JSON numbers: %r" % (name, v))
        if len(v) != 31:
            bad("%s holds %d counts, not 31" % (name, len(v)))
        return "/".join(str(x) for x in v)
    if name in ("step", "order"):
        if not isinstance(v, str):
            bad("%s is not a string: %r" % (name, v))
        return v
    if from_csv:
        if not re.fullmatch(r"[0-9]+\.[0-9]{9}" if name == "seconds" else r"[0-9]+", v):
            bad("%s is not a number as it should be: %r" % (name, v))
        return float(v) if name == "seconds" else int(v)
    if type(v) is not (float if name == "seconds" else int):
        bad("%s is not a JSON number of the right kind: %r" % (name, v))
    return v

rows = []
if fmt == "csv":
    if not raw.endswith(b"\r\n") or raw.count(b"\n") != raw.count(b"\r\n"):
        bad("a line not ended by CRLF (RFC 4180)")
    with open(path, newline="") as f:
        table = list(csv.reader(f, strict=True))
    header = table[0]
    # No field holds a comma or a quote: the raw fields are the header's,
    # and the strip and counts, and they alone, are in quotes.
    for line in raw.decode().split("\r\n")[1:-1]:
        fields = line.split(",")
        if len(fields) != len(header):
            bad("a comma inside a field: %r" % line)
        for h, f in zip(header, fields):
            if (f != "" and (h == "page_map" or h.endswith("_heat"))) != (f[:1] == '"' == f[-1:] and len(f) > 1):
                bad("%s quoted where it should not be, or not where it should: %r" % (h, f))
    for r in table[1:]:
        if len(r) != len(header):
            bad("a row of %d fields, the header has %d" % (len(r), len(header)))
        rows.append({h: value(h, v, True) for h, v in zip(header, r)})
else:
    if b"\r" in raw or not raw.endswith(b"\n"):
        bad("not JSON Lines: a CR, or no newline at the end")
    header = None
    for line in raw.decode().splitlines():
        obj = json.loads(line)
        if not isinstance(obj, dict):
            bad("a line that is not an object")
        if header is None:
            header = list(obj)
        if list(obj) != header:
            bad("keys %s, not the first line's" % list(obj))
        rows.append({h: value(h, v, False) for h, v in obj.items()})
if not rows:
    bad("no record")
print(",".join(header))
for r in rows:
    print(" ".join("-" if r[h] is None else "%.9f" % r[h] if h == "seconds" else str(r[h]) for h in header))
EOF
records() { "$py" -I "$tmp/read.py" "$1" "$2" >"$tmp/$3.rows"; }
# pyok DESC CMD...: ok, or a skip where there is no python3 (CMD is not
# run, so it reads its files itself: the predicates below).
pyok() { if [ -n "$py" ]; then ok "$@"; else skip "$1" "python3 is not installed"; fi; }
# same_records JSON NAME CSV_ROWS: JSON read as NAME, its records those of CSV_ROWS.
# shellcheck disable=SC2317 # called by ok
same_records() { records json "$1" "$2" && cmp "$3" "$tmp/$2.rows"; }
# header_is ROWS COLUMNS: records' header.
# shellcheck disable=SC2317 # called by ok
header_is() { [ "$(head -n 1 "$1")" = "$2" ]; }

# agree WHAT TEXT ROWS: the text lines of TEXT (swap's stdout) and the
# records of ROWS (records') say the same, for WHAT: count (a record per
# line), label (a record's step and bytes give its line's label), rss,
# swap, major, seconds (as the text rounds them), latency (-l's lines
# after each step), map (each record's pages add up to the mapping's, and
# -m's strip after the line holds them; a 16 MB run), strip (page_map is
# that strip), heat (each KIND_heat count is its heat line's, 0 where the
# line has none), heatsum (a step's heat counts add up to its KIND_count).
# Says each disagreement on stderr.
# shellcheck disable=SC2317 # called by ok
agree() {
    awk -v what="$1" -v npages="$n16" "$report_awk"'
    function v(name, r) { return (name in col) ? V[r, col[name]] : "?" }
    function size_text(b) { return b % 1048576 == 0 ? b / 1048576 " MB" : b / 1024 " KB" }
    # duration_text in swap.c: two significant digits.
    function dur(ns,   x, u, unit) {
        split("ns \302\265s ms s", unit, " ")
        x = ns + 0; u = 1
        while (u < 4 && x >= 999.5) { x /= 1000; u++ }
        return sprintf(x < 9.95 && u > 1 ? "%.1f %s" : "%.0f %s", x, unit[u])
    }
    function no(why) { print "record " r ": " why > "/dev/stderr"; wrong++ }
    function marks(s, m,   t) { t = s; return gsub(m, "", t) }
    FNR == NR {
        if (FNR == 1) { nh = split($0, H, ","); for (i = 1; i <= nh; i++) col[H[i]] = i; next }
        nr++
        for (i = 1; i <= NF; i++) V[nr, i] = $i
        next
    }
    report($0) {
        nt++; L[nt] = R_label; RSS[nt] = R_rss; SWP[nt] = R_swap; MAJ[nt] = R_major; SEC[nt] = R_seconds
        next
    }
    /^  (no|minor|major) fault +[0-9]+  median / {
        k = $1 "_fault"; LN[nt, k] = $3; LM[nt, k] = $5 " " $6; LP[nt, k] = $8 " " $9
        LX[nt, k] = $11 " " $12; LT[nt, k] = $14 " " $15
        next
    }
    /^          \[.*\]$/ { S[nt] = substr($0, 12, length($0) - 12) }
    /^  heat (no|minor|major) fault +2\^[0-9]+\.\.2\^[0-9]+ ns:/ {
        lo = $4; sub(/^2\^/, "", lo); sub(/\..*/, "", lo)
        for (i = 6; i <= NF; i++) HC[nt, $2 "_fault", lo + i - 6] = $i
        next
    }
    END {
        for (r = 1; r <= nr; r++) if (v("step", r) == "write") size = v("bytes", r)
        if (what == "count" && nt != nr) { print nt " lines of text, " nr " records" > "/dev/stderr"; wrong++ }
        for (r = 1; r <= nr && r <= nt; r++) {
            step = v("step", r); b = v("bytes", r); ends = step != "start" && b == size
            if (what == "label") {
                want = step == "start" ? "start:" : !ends ? (step == "write" ? "writing: " : "reading: ") size_text(b) : \
                    step == "write" ? "after writing " size_text(b) ":" : \
                    v("order", r) == "forward" ? "after reading it back:" : "after reading, " v("order", r) ":"
                if (L[r] != want) no(step " " b " bytes: its line says \"" L[r] "\", not \"" want "\"")
            }
            if (what == "rss" && int(v("rss_kb", r) / 1024) != RSS[r]) no("rss_kb " v("rss_kb", r) ", the line " RSS[r] " MB")
            if (what == "swap" && int(v("swap_kb", r) / 1024) != SWP[r]) no("swap_kb " v("swap_kb", r) ", the line " SWP[r] " MB")
            if (what == "major" && v("major_faults", r) != MAJ[r]) no("major_faults " v("major_faults", r) ", the line " MAJ[r])
            if (what == "seconds" && sprintf("%.2f", v("seconds", r)) != SEC[r]) no("seconds " v("seconds", r) ", the line " SEC[r] " s")
            if (what == "latency") {
                split("no_fault minor_fault major_fault", K, " ")
                for (i = 1; i <= 3; i++) {
                    k = K[i]; n = v(k "_count", r)
                    if (!ends) {
                        if (n v(k "_median_ns", r) v(k "_p99_ns", r) v(k "_max_ns", r) v(k "_total_ns", r) != "-----")
                            no(k ": values on a line that ends no step")
                    } else if ((r, k) in LN) {
                        if (n != LN[r, k]) no(k "_count " n ", its line " LN[r, k])
                        if (dur(v(k "_median_ns", r)) != LM[r, k]) no(k "_median_ns " v(k "_median_ns", r) ", its line " LM[r, k])
                        if (dur(v(k "_p99_ns", r)) != LP[r, k]) no(k "_p99_ns " v(k "_p99_ns", r) ", its line " LP[r, k])
                        if (dur(v(k "_max_ns", r)) != LX[r, k]) no(k "_max_ns " v(k "_max_ns", r) ", its line " LX[r, k])
                        if (dur(v(k "_total_ns", r)) != LT[r, k]) no(k "_total_ns " v(k "_total_ns", r) ", its line " LT[r, k])
                    } else if (n != 0 || v(k "_total_ns", r) != 0 || v(k "_median_ns", r) v(k "_p99_ns", r) v(k "_max_ns", r) != "---")
                        no(k ": no line for it, yet count " n)
                }
            }
            if (what == "strip") {
                s = S[r]; gsub(/ /, "_", s)
                if (v("page_map", r) != s) no("page_map [" v("page_map", r) "], its strip [" s "]")
            }
            if (what == "heat" || what == "heatsum") {
                split("no_fault minor_fault major_fault", K, " ")
                for (i = 1; i <= 3; i++) {
                    k = K[i]
                    if (split(v(k "_heat", r), c, "/") != 31) { no(k "_heat: not 31 counts"); continue }
                    for (j = 1; j <= 31; j++) {
                        if (what == "heat" && c[j] != HC[r, k, j + 2] + 0)
                            no(k "_heat: " c[j] " at 2^" j + 2 " ns, its heat line " HC[r, k, j + 2] + 0)
                        SUM[k] += c[j]
                    }
                    if (what == "heatsum" && (step == "start" || ends)) {
                        if (SUM[k] != (step == "start" ? 0 : v(k "_count", r)))
                            no(step " " k ": heat counts add up to " SUM[k] ", " k "_count " v(k "_count", r))
                        SUM[k] = 0
                    }
                }
            }
            if (what == "map") {
                ram = v("pages_in_ram", r); swp = v("pages_in_swap", r); unt = v("pages_untouched", r)
                if (ram + swp + unt != npages) no(ram " + " swp " + " unt " pages, not " npages)
                # A mark holds 7 in 8 of its pages in that state, ":" any
                # share (map_mark): bounds for each count.
                if ((cells = length(S[r])) == 0) { no("no strip after its line"); continue }
                lo = int(npages / cells); hi = int((npages + cells - 1) / cells)
                M[1] = "#"; M[2] = "[.]"; M[3] = " "; C[1] = ram; C[2] = swp; C[3] = unt
                for (i = 1; i <= 3; i++) {
                    full = marks(S[r], M[i]); mixed = marks(S[r], ":")
                    if (8 * C[i] < 7 * full * lo || C[i] > (full + mixed) * hi + (cells - full - mixed) * hi / 8)
                        no("\"" M[i] "\" pages " C[i] " against its strip [" S[r] "]")
                }
            }
        }
        exit (wrong > 0)
    }' "$3" "$2"
}
# shellcheck disable=SC2317 # called by ok
agree_all() { for w in count label rss swap major seconds; do agree "$w" "$1" "$2" || return 1; done; }

if [ -n "$py" ]; then
    run "$swap" -i 4M --export-csv="$tmp/a.csv" --export-json="$tmp/a.json" 16M
    cp "$out" "$tmp/a.txt"
fi
pyok "CSV read by Python's csv module (strict): CRLF, the rows as long as the header, numbers" records csv "$tmp/a.csv" a.csv
pyok "JSON read by Python's json module: an object per line, the same keys, numbers as numbers" records json "$tmp/a.json" a.json
pyok "the JSON's records are the CSV's" cmp -s "$tmp/a.csv.rows" "$tmp/a.json.rows"
pyok "-i 4M 16M: no -m or -l column" header_is "$tmp/a.csv.rows" "$base"
pyok "a record per text line (9)" agree count "$tmp/a.txt" "$tmp/a.csv.rows"
pyok "each record's step and bytes give its line's label" agree label "$tmp/a.txt" "$tmp/a.csv.rows"
pyok "rss_kb: the line's RSS, in kB" agree rss "$tmp/a.txt" "$tmp/a.csv.rows"
pyok "swap_kb: the line's swap, in kB" agree swap "$tmp/a.txt" "$tmp/a.csv.rows"
pyok "major_faults: the line's" agree major "$tmp/a.txt" "$tmp/a.csv.rows"
pyok "seconds: the line's, unrounded" agree seconds "$tmp/a.txt" "$tmp/a.csv.rows"
# (All nine to the hundredth would be a chance of one in 10^63.)
# shellcheck disable=SC2317 # called by ok
unrounded() { awk 'NR > 1 && $7 !~ /\.[0-9][0-9]0000000$/ { n++ } END { exit !n }' "$1"; }
pyok "seconds to the nanosecond, not the hundredth" unrounded "$tmp/a.csv.rows"
# Every page written is first touched then: a minor fault each.
# shellcheck disable=SC2317 # called by ok
minor_per_page() {
    awk -v n="$2" '$1 == "start" { s = $6 } $1 == "write" { w = $6 }
        END { if (w - s < n) { print "the write step: " w - s " minor faults" > "/dev/stderr"; exit 1 } }' "$1"
}
pyok "minor_faults: the write step adds at least one a page ($n16)" minor_per_page "$tmp/a.csv.rows" "$n16"

if [ -n "$py" ]; then
    run "$swap" -m -l -i 4M -o reverse --export-csv="$tmp/b.csv" --export-json="$tmp/b.json" 16M
    cp "$out" "$tmp/b.txt"
    records csv "$tmp/b.csv" b.csv
fi
pyok "-m -l -i 4M -o reverse: JSON as CSV" same_records "$tmp/b.json" b.json "$tmp/b.csv.rows"
pyok "-m -l -o reverse: the lines' labels, the read's 'reverse'" agree label "$tmp/b.txt" "$tmp/b.csv.rows"
pyok "-l: each step's counts, median, 99th, slowest and sum as its lines say, none elsewhere" agree latency "$tmp/b.txt" "$tmp/b.csv.rows"
pyok "-m: each record's pages add up to the mapping's and sit where its strip says" agree map "$tmp/b.txt" "$tmp/b.csv.rows"
pyok "-m: each record's page_map its line's strip, blanks and all" agree strip "$tmp/b.txt" "$tmp/b.csv.rows"
pyok "-l -i: the heat columns, after -l's" header_is "$tmp/b.csv.rows" "$base,$map_cols,$lat_cols,$heat_cols"
pyok "-l -i: each record's heat counts its heat lines', 0 where they show none" agree heat "$tmp/b.txt" "$tmp/b.csv.rows"
pyok "-l -i: a step's heat counts add up to its KIND_count, the start's to 0" agree heatsum "$tmp/b.txt" "$tmp/b.csv.rows"

if [ -n "$py" ]; then
    run "$swap" -m --format=csv --export-json="$tmp/c.json" -i 4M 16M
    cp "$out" "$tmp/c.csv"
fi
pyok "-m --format=csv: stdout read by Python's csv module" records csv "$tmp/c.csv" c.csv
pyok "-m --format=csv: its records those of --export-json's file" same_records "$tmp/c.json" c.json "$tmp/c.csv.rows"
[ -z "$py" ] || run "$swap" -l --format=json 16M
pyok "-l --format=json: stdout read by Python's json module" records json "$out" d.json
pyok "-l --format=json: -l's keys, no -m's" header_is "$tmp/d.json.rows" "$base,$lat_cols"

# ------------------------------------------------------- a boxed run
# In the lesson's proportions (small_box): the rows show what the lines
# do, the pages going to swap and coming back by major faults.
boxed_skip() {
    for t in "exit 0" "rows and lines agree" "RSS at most the box" "swap grows while writing" \
        "half the run or more in swap" "the read's major faults"; do
        "$1" "boxed run: $t" "$2"
    done
}
if [ -z "$py" ]; then
    boxed_skip skip "python3 is not installed"
elif ! { how=$(sh "$box" how) && want_swap; }; then
    boxed_skip box_skip "${swap_why:-no way to make a memory box: ${how#none: }}"
else
    diag "box: $how"
    small_box
    # As root under sudo the run is hers: its file goes in her folder.
    asker_out || fail "a folder for the records, as UID $run_uid" "cannot make one in her lab folder"
    boxed=${asker_tmp:-$tmp}/boxed.csv
    run sh "$box" run "${box_mb}M" "$swap" -i 4M --export-csv="$boxed" "${run_mb}M"
    # (The rest only reads files: the turn goes to the next test.)
    swap_done
    ok "boxed run: exit 0, nothing on stderr (${run_mb} MB in ${box_mb} MB, -i 4M)" clean
    [ "$rc" -eq 0 ] || show_run >&2
    cp "$out" "$tmp/e.txt"
    records csv "$boxed" e.csv
    ok "boxed run: rows and lines agree (count, labels, RSS, swap, major faults, seconds)" \
        agree_all "$tmp/e.txt" "$tmp/e.csv.rows"
    cell() { awk -v s="$2" -v b="$3" -v c="$4" '$1 == s && $2 == b { print $c }' "$1"; }
    run_b=$((run_mb * 1048576)) e=$tmp/e.csv.rows
    start_rss=$(cell "$e" start 0 3) wrote_rss=$(cell "$e" write "$run_b" 3)
    # (Code and libc, resident at the start, count in VmRSS, not in the box.)
    is "boxed run: after writing, RSS at most the box and what was resident at the start ($start_rss kB)" \
        "${wrote_rss:-0}" -le $((box_mb * 1024 + ${start_rss:-0} + $(rss_lag_mb) * 1024))
    first=$(cell "$e" write 4194304 4) wrote=$(cell "$e" write "$run_b" 4)
    ok "boxed run: swap grows while writing ($first kB at 4 MB, $wrote kB at the end)" [ "${wrote:-0}" -gt "${first:-0}" ]
    is "boxed run: after writing, half the run or more in swap" "${wrote:-0}" -ge $((run_mb * 512))
    m_w=$(cell "$e" write "$run_b" 5) m_r=$(cell "$e" read "$run_b" 5) cluster=$(cat /proc/sys/vm/page-cluster)
    is "boxed run: the read's major faults, at least half the pages in swap / 2^$cluster" \
        $((${m_r:-0} - ${m_w:-0})) -ge $((${wrote:-0} * 1024 / page / (2 << cluster)))
fi

# ------------------------------------------------ root's export files
# Root writes only in a folder of root's that no one else may write,
# through no link: a link planted in /tmp (here, in a folder as open),
# or on the way, to a file of root's, leaves the file as it was.
rootw="root writes a FILE of --export-csv"
if [ "$self_uid" -ne 0 ]; then
    for d in "in a folder others may write" "through a link on the way" "in its own folder, and /dev/fd/N"; do
        skip "$rootw $d" "not root"
    done
else
    mkdir -m 700 "$tmp/mine" && mkdir -m 1777 "$tmp/open" && echo kept >"$tmp/mine/secret" &&
        ln -s "$tmp/mine/secret" "$tmp/open/ada.csv" && ln -s "$tmp/mine" "$tmp/via"
    run "$swap" --export-csv="$tmp/open/ada.csv" 1M
    # shellcheck disable=SC2317 # called by ok
    kept() { [ "$rc" -eq 1 ] && [ ! -s "$out" ] && [ "$(cat "$tmp/mine/secret")" = kept ] && line_is 1 "$1" "$err"; }
    ok "$rootw in a folder others may write: refused before the run, the link's file kept" \
        kept "^swap: $tmp/open/ada.csv: its folder is another user's, or others may write it"
    run "$swap" --export-csv="$tmp/via/secret" 1M
    ok "$rootw through a link on the way: refused, the file kept" kept "^swap: $tmp/via/secret: a symbolic link on the way"
    run "$swap" --export-csv="$tmp/mine/run.csv" --export-json=/dev/fd/5 1M 5>"$tmp/fd5.json"
    # shellcheck disable=SC2317 # called by ok
    written() { [ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/mine/run.csv")" = "$base$crlf" ] && [ "$(wc -l <"$tmp/fd5.json")" -eq 3 ]; }
    ok "$rootw in its own folder, and /dev/fd/N: both written" written
fi

done_testing
