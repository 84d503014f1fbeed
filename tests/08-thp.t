#!/bin/sh
# With transparent huge pages set to "always", the program still gets base
# pages (MADV_NOHUGEPAGE): no huge page is faulted in during a plain run.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -w "$thp" ] || skip_all "cannot set THP mode (not root, or no THP in this kernel)"
# A huge page is 2 MB with 4 KiB pages, 32 MB with 16 KiB ones.
hpage=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null)
[ -n "$hpage" ] || skip_all "no /sys/kernel/mm/transparent_hugepage/hpage_pmd_size: the huge page size is unknown"
huge=$((268435456 / hpage))
plan 3

thp_saved=$(sed 's/.*\[\([a-z]*\)\].*/\1/' "$thp")     # restored by cleanup
echo always >"$thp" || { fail "set THP to always"; done_testing; }
pass "THP set to always (was $thp_saved)"
before=$(vmstat thp_fault_alloc)
run "$swap"
after=$(vmstat thp_fault_alloc)
is "exit status 0" "$rc" -eq 0
# thp_fault_alloc counts for the whole machine, and THP "always" applies to
# every process for the moment: another program may fault in a few huge
# pages meanwhile.  A build without the advice faults in 256 MB / hpage of
# them (128 of 2 MB): fail at half that.
is "no huge page of ours faulted in (thp_fault_alloc $before -> $after; without MADV_NOHUGEPAGE +$huge of $((hpage / 1048576)) MB)" \
    "$((after - before))" -lt $((huge / 2))
done_testing
