#!/bin/sh
# With transparent huge pages set to "always", the program still gets base
# pages (MADV_NOHUGEPAGE): no huge page is in its mapping while it writes.
# The mode is the whole machine's: it is recorded first (scripts/box sweep
# puts it back should the test be killed) and put back at the end.  What is
# counted is the run's own (AnonHugePages in /proc/PID/smaps_rollup), read
# while it waits (swap --pause) with 8 MB written: no other process's huge
# pages can count.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
f=/sys/kernel/mm/transparent_hugepage/enabled
[ -w "$f" ] || skip_all "cannot set THP mode (not root, or no THP in this kernel)"
hpage=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null)
[ -n "$hpage" ] || skip_all "no /sys/kernel/mm/transparent_hugepage/hpage_pmd_size: the huge page size is unknown"
need_room 32
# Its turn (swap_lock): it sweeps, and a sweep of this user's must not meet
# what tests/17 of another suite leaves on purpose inside its own turn.
swap_lock
plan 5

# thp MODE: the machine's mode, recorded first (scripts/lib.sh's remember:
# a sweep puts it back should the test be killed), put back at its end as
# the flows put theirs back (put_back).
thp_saved=''
# as_flow CMD...: CMD of scripts/box's, with this test's records.
# shellcheck disable=SC2016 # expanded by that sh
as_flow() { sh -c 'box_library=1 box_self=$1 record_as=test; . "$1" && state_dir=$2 tag=$3 && shift 3 && "$@"' sh "$box" "$state_dir" "$tag" "$@"; }
# shellcheck disable=SC2317 # called by the cleanup
thp_back() { [ -z "$thp_saved" ] || as_flow put_back thp; }
at_exit=thp_back
thp() {
    was=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$f" 2>/dev/null)
    [ -n "$was" ] && as_flow remember thp "$was" 2>/dev/null || return 1
    thp_saved=$was
    echo "$1" >"$f"
}
thp always || { fail "set THP to always"; done_testing; }
pass "THP set to always (was $thp_saved), recorded in $state_dir/swap-test.$tag.thp"
ok "the record holds the mode to put back ($thp_saved)" [ "$(cat "$state_dir/swap-test.$tag.thp" 2>/dev/null)" = "$thp_saved" ]

# The run paused at its line for 8 MB written (its second); its huge
# pages then, in kB, in $huge_kb, and its RSS in $rss_kb.
hold "$out" "$err"
"$swap" --pause -i 8M 32M <"$held_in" >"$out" 2>"$err" 6>&- &
p=$!
go
wait_for paused "$err" 2
# (Both from one read of smaps_rollup: the same moment's figures.)
rss_kb='' huge_kb=''
read -r rss_kb huge_kb <<EOF2
$(awk '$1 == "Rss:" { r = $2 } $1 == "AnonHugePages:" { h = $2 } END { if (h != "") print r, h }' "/proc/$p/smaps_rollup" 2>/dev/null)
EOF2
let_go
reap "$p"
rc=${st:-none}
is "the run exit status 0" "$rc" -eq 0
if [ -z "$huge_kb" ] || [ "${rss_kb:-0}" -lt 8192 ]; then
    fail "no huge page in the run's mapping" "not held with 8 MB written: Rss '$rss_kb' kB, AnonHugePages '$huge_kb' kB"
else
    is "no huge page in the run's mapping (AnonHugePages $huge_kb kB, of $rss_kb kB resident, paused; huge pages of $((hpage / 1024)) kB)" "$huge_kb" -eq 0
fi

# Put back by the cleanup; here, by the sweep, as after kill -9.
echo "$thp_saved" >"$f" && thp_was=$thp_saved && thp_saved=''
echo always >"$f"
sh "$box" sweep -q 2>"$tmp/sweep.err"
now=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$f")
# (The record's owner, this test, still lives: the sweep leaves it.)
if [ "$now" = always ] && [ -f "$state_dir/swap-test.$tag.thp" ]; then
    echo "$thp_was" >"$f"
    # As a dead owner's: renamed with a tag that names no process.
    mv "$state_dir/swap-test.$tag.thp" "$state_dir/swap-test.999999999.1.thp"
    echo always >"$f"
    sh "$box" sweep 2>"$tmp/sweep.err"
    now=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$f")
    if [ "$now" = "$thp_was" ] && [ ! -e "$state_dir/swap-test.999999999.1.thp" ] && grep -q "THP put back to $thp_was" "$tmp/sweep.err"; then
        pass "a dead test's record: the sweep puts THP back to $thp_was ($(cat "$tmp/sweep.err"))"
    else
        fail "a dead test's record: the sweep puts THP back to $thp_was" "now $now" "$(cat "$tmp/sweep.err")"
        echo "$thp_was" >"$f"
        rm -f "$state_dir/swap-test.999999999.1.thp"
    fi
else
    fail "a live test's record is left alone by the sweep" "now $now" "$(cat "$tmp/sweep.err")"
    echo "$thp_was" >"$f"
fi
done_testing
