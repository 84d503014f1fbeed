#!/bin/sh
# -v: the facts that shape the result, each as the kernel itself reports
# it (the LRU too: which one reclaims decides the 1997 question), then the
# usual three lines, each step's followed by the time it stalled on memory
# (PSI).  Boxed, it names the box's limit.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
# (It reads what swap is on, and makes a box: its turn.)
swap_lock
plan 14

# says KEY VALUE [prefix]: the line "KEY:" says VALUE (or, with prefix,
# starts with it), compared as text: a kernel release such as
# 6.12.117+deb13-arm64-16k or a path is no regular expression.
# shellcheck disable=SC2317 # called by ok
says() {
    awk -v k="$1:" -v v="$2" -v prefix="${3-}" 'index($0, k) == 1 {
            rest = substr($0, length(k) + 1); sub(/^ +/, "", rest)
            if (rest == v || (prefix != "" && index(rest, v) == 1)) found = 1
        } END { exit !found }' "$out" && return 0
    echo "no line '$1: $2'${3:+...}; what there is: $(grep "^$1:" "$out")" >&2
    return 1
}
# Each step's line followed by its stall line, or none where -v said PSI
# is not available: the labels of the lines from start: on, in $got.
# shellcheck disable=SC2317 # called by ok
stalls_follow() {
    [ "$got" = "start:|after writing 8 MB:|stalled on memory:|after reading it back:|stalled on memory:|" ] ||
        { has "$out" '^PSI: *not available' && [ "$got" = "start:|after writing 8 MB:|after reading it back:|" ]; }
}

run "$swap" -v 8M
is "exit status 0" "$rc" -eq 0
ok "kernel release, as uname -r prints it" says kernel "$(uname -r)"
ok "page size, as getconf PAGESIZE prints it" says "page size" "$(getconf PAGESIZE) bytes"
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
    mode=$(sed 's/.*\[\([a-z]*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
    ok "THP mode $mode" says THP "$mode " prefix
else
    ok "THP: not available" says THP "not available"
fi
ok "vm.page-cluster" says page-cluster "$(cat /proc/sys/vm/page-cluster) " prefix
# The LRU, as /sys/kernel/mm/lru_gen/enabled says: bit 0 is MGLRU's switch.
lg=/sys/kernel/mm/lru_gen/enabled
if [ -r "$lg" ]; then
    v=$(cat "$lg")
    if [ $((v & 1)) -eq 1 ]; then lru="multi-generational (MGLRU) (lru_gen/enabled $v)"
    else lru="classic active/inactive (lru_gen/enabled $v)"; fi
elif [ -d /sys/kernel/mm ]; then
    lru="classic active/inactive (no MGLRU in this kernel)"
else
    lru="unknown (no /sys/kernel/mm)"
fi
ok "the LRU: $lru" says LRU "$lru"
ok "one line per swap device (or 'none')" says "swap device" "$(awk 'NR == 2 { print $1 " (" } END { if (NR < 2) print "none" }' /proc/swaps)" prefix
lim=$(runner_limit_mb)
if [ -z "$lim" ]; then
    ok "no memory limit when run plainly" says "memory limit" none
else
    ok "run plainly: the limit this runner is under ($lim MB, as scripts/box reads it)" says "memory limit" "$lim MB"
fi
# Then the three lines, each step's followed by its stall time (PSI) where
# the kernel has it: the lines of the lesson after the facts, in order.
got=$(sed -n '/^start: /,$p' "$out" | sed 's/ *RSS .*//; s/ *some .*//' | tr '\n' '|')
ok "then the three lines, a stall line after each step ($got)" stalls_follow

# The readahead line agrees with what this machine has: no swap device,
# none; a cluster named after a device that is on; VMA only where
# vma_ra_enabled is true (swap.c's print_readahead, mm/swap_state.c).
# rotating_swap: the swap devices on now (zram aside) whose disk says it
# rotates, told another way: the file system's source (findmnt) for a file.
rotating_swap() {
    awk 'NR > 1 && $1 !~ /^\/dev\/zram/ { print $1 }' /proc/swaps | while read -r sd; do
        [ -b "$sd" ] || sd=$(findmnt -n -o SOURCE -T "$sd" 2>/dev/null)
        b=/sys/class/block/${sd##*/}
        r=$(cat "$b/queue/rotational" 2>/dev/null || cat "$b/../queue/rotational" 2>/dev/null)
        [ "$r" != 1 ] || echo "$sd"
    done
}
ra=$(sed -n 's/^readahead: *//p' "$out")
vma=$(cat /sys/kernel/mm/swap/vma_ra_enabled 2>/dev/null)
case $ra in
"none (no swap device)") agrees=$([ "$(awk 'NR > 1' /proc/swaps | wc -l)" -eq 0 ] && echo 1) ;;
"cluster (/sys/kernel/mm/swap/vma_ra_enabled is false)") agrees=$([ "$vma" = false ] && echo 1) ;;
"cluster ("*" is on a disk that says it rotates: queue/rotational 1; swapon reads it, so a change counts from the next swapon)")
    d=${ra#cluster (} d=${d%% is on a disk*}
    agrees=$(awk -v d="$d" 'NR > 1 && $1 == d { print 1 }' /proc/swaps) ;;
"VMA (vma_ra_enabled, and no swap device on a rotational disk; swapon reads queue/rotational, so a change counts from the next swapon)")
    agrees=$([ "$vma" != false ] && [ -z "$(rotating_swap)" ] && echo 1) ;;
"none: zram"*) agrees=$(awk 'NR > 1 && $1 !~ /^\/dev\/zram/ { f = 1 } END { if (!f && NR > 1) print 1 }' /proc/swaps) ;;
*) agrees='' ;;
esac
ok "the readahead mode agrees with the machine (vma_ra_enabled $vma, $(($(wc -l </proc/swaps) - 1)) swap devices), and why: $ra" [ -n "$agrees" ]

# A kernel with PSI off (CONFIG_PSI_DEFAULT_DISABLED without psi=1, as this
# project's 6.18 host is built): no /proc/pressure, and no cgroup's
# memory.pressure either (cgroup_addrm_files, kernel/cgroup/cgroup.c, 6.1,
# skips the CFTYPE_PRESSURE files when cgroup_psi_enabled() is false).
# Here /proc/pressure is hidden under an empty tmpfs, and the run's own
# cgroup's memory.pressure under /dev/null (where PSI is on and the run is
# in a cgroup v2, -v reads that first), in a mount namespace of the run's
# own (root).  -v says so, and how to turn it on; the three lines have no
# stall lines.
if is_root && command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
    # shellcheck disable=SC2016 # expanded by that sh
    run unshare -m sh -c 'mount -t tmpfs none /proc/pressure || exit 9
        rel=$(sed -n "s/^0:://p" /proc/self/cgroup)
        for m in $(awk "\$3 == \"cgroup2\" { print \$2 }" /proc/self/mounts); do
            f=$m${rel%/}/memory.pressure
            [ ! -e "$f" ] || mount --bind /dev/null "$f" || exit 9
        done
        exec "$1" -v 8M' sh "$swap"
    got=$(sed -n '/^start: /,$p' "$out" | sed 's/ *RSS .*//' | tr '\n' '|')
    ok "no /proc/pressure: exit status 0, nothing on stderr" clean
    ok "no /proc/pressure: -v says PSI is off and how to turn it on (psi=1)" \
        has "$out" '^PSI: *not available \(.*CONFIG_PSI_DEFAULT_DISABLED=y and booted without psi=1: add psi=1 to the kernel.s command line\)$'
    ok "no /proc/pressure: no stall lines" [ "$got" = "start:|after writing 8 MB:|after reading it back:|" ]
else
    for c in "exit status 0" "-v says PSI is off and how to turn it on" "no stall lines"; do
        skip "no /proc/pressure: $c" "not root, or no unshare -m here"
    done
fi

how=$(sh "$box" how) || {
    box_skip "boxed: names the 64 MB limit" "no way to make a memory box: ${how#none: }"
    done_testing
}
run sh "$box" run 64M "$swap" -v 8M
ok "boxed: names the 64 MB limit" says "memory limit" "64 MB"
[ "$failures" -eq 0 ] || show_run >&2
done_testing
