#!/bin/sh
# Memory errors and undefined behaviour: an ASan+UBSan build runs clean, and
# so does valgrind's memcheck on a small size.  -v runs too, to cover the
# parsing of /proc and /sys.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 8

cc=${CC:-cc}
if $cc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -o "$tmp/swap-asan" "$top/swap.c" 2>"$err"; then
    for args in "" "-v 8M" "-o random 8M"; do
        # shellcheck disable=SC2086 # word splitting wanted
        run "$tmp/swap-asan" $args
        is "ASan+UBSan ./swap $args: exit status 0" "$rc" -eq 0
        if [ ! -s "$err" ]; then pass "ASan+UBSan ./swap $args: no report"; else
            fail "ASan+UBSan ./swap $args: no report" "$(head -n 20 "$err")"; fi
    done
else
    skip "ASan+UBSan build" "$cc cannot build with -fsanitize=address,undefined: $(head -n 1 "$err")"
    for i in 2 3 4 5 6; do skip "ASan+UBSan build ($i)" "see above"; done
fi

if command -v valgrind >/dev/null 2>&1; then
    run valgrind -q --error-exitcode=99 --leak-check=full "$swap" -v 8M
    is "valgrind memcheck ./swap -v 8M: exit status 0" "$rc" -eq 0
    if [ ! -s "$err" ]; then pass "valgrind memcheck: no errors"; else
        fail "valgrind memcheck: no errors" "$(head -n 20 "$err")"; fi
else
    skip "valgrind memcheck" "valgrind is not installed"
    skip "valgrind memcheck" "valgrind is not installed"
fi
done_testing
