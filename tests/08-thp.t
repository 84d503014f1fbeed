#!/bin/sh
# With transparent huge pages set to "always", the program still gets base
# pages (MADV_NOHUGEPAGE): no huge page is faulted in during a plain run.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -w "$thp" ] || skip_all "cannot set THP mode (not root, or no THP in this kernel)"
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
# pages meanwhile.  A build without the advice faults in 128 (256 MB / 2 MB).
is "no huge page of ours faulted in (thp_fault_alloc $before -> $after; without MADV_NOHUGEPAGE +128)" \
    "$((after - before))" -lt 64
done_testing
