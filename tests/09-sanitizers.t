#!/bin/sh
# Memory errors and undefined behaviour: an ASan+UBSan build runs clean, and
# so does valgrind's memcheck on a small size.  -v runs too, to cover the
# parsing of /proc and /sys.  valgrind runs with no debugger files
# (--vgdb=no) and the test's private TMPDIR: with its defaults it re-creates
# /tmp/vgdb-pipe-shared-mem-vgdb-PID-by-USER-on-HOST with O_CREAT and no
# O_EXCL, and root's valgrind would write through a link another user
# planted there.  Its run is traced (strace) to show it creates nothing in
# a shared folder.  Not traced by the census (tests/98): LeakSanitizer
# refuses to run under ptrace.
# shellcheck disable=SC2034 # read by tests/lib.sh
no_census=1
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 9

cc=${CC:-cc}
# Under a tracer (strace -f make check), LeakSanitizer cannot run: it stops
# the program with ptrace, and only one tracer may hold it.  ASan and UBSan
# still can, with the leak check off, and the checks say so.
lsan=''
if traced; then
    ASAN_OPTIONS=detect_leaks=0
    export ASAN_OPTIONS
    lsan=' (no leak check: traced, and LeakSanitizer cannot run under ptrace)'
fi
if $cc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -o "$tmp/swap-asan" "$top/swap.c" 2>"$err"; then
    for args in "" "-v 8M" "-o random 8M"; do
        # shellcheck disable=SC2086 # word splitting wanted
        run "$tmp/swap-asan" $args
        is "ASan+UBSan ./swap $args: exit status 0$lsan" "$rc" -eq 0
        ok "ASan+UBSan ./swap $args: no report$lsan" [ ! -s "$err" ]
    done
else
    skip "ASan+UBSan build" "$cc cannot build with -fsanitize=address,undefined: $(head -n 1 "$err")"
    for i in 2 3 4 5 6; do skip "ASan+UBSan build ($i)" "see above"; done
fi

if command -v valgrind >/dev/null 2>&1; then
    set -- valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full "$swap" -v 8M
    if why=$(census_can); then run census_trace "$tmp/valgrind.trace" "$@"; else run "$@"; fi
    is "valgrind memcheck ./swap -v 8M: exit status 0" "$rc" -eq 0
    ok "valgrind memcheck: no errors" [ ! -s "$err" ]
    if [ ! -s "$tmp/valgrind.trace" ]; then
        skip "valgrind creates nothing in /tmp, /var/tmp or /dev/shm" "$why, to see what it creates"
    else
        made=$(census "$tmp/valgrind.trace")
        ok "valgrind creates nothing in /tmp, /var/tmp or /dev/shm" [ -z "$made" ]
    fi
else
    for i in 1 2 3; do skip "valgrind memcheck ($i)" "valgrind is not installed"; done
fi
done_testing
