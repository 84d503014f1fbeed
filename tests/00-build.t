#!/bin/sh
# The build: warning-free under gcc and clang with -Wall -Wextra -Werror,
# through the Makefile, which must honour the user's CC and CFLAGS.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 5

# Build a copy in $tmp so the ./swap the other tests use is not touched.
cp "$top/swap.c" "$top/Makefile" "$tmp/"
build() { make -s --no-print-directory -B -C "$tmp" CC="$1" CFLAGS="-O2 -Werror" swap >"$out" 2>&1; }

for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        skip "$cc builds without warnings" "$cc is not installed"
    elif build "$cc" && [ ! -s "$out" ]; then
        pass "$cc builds without warnings (-Wall -Wextra -Werror)"
    else
        fail "$cc builds without warnings (-Wall -Wextra -Werror)" "$(cat "$out")"
    fi
done

make -n -B -C "$tmp" CC=mycc CFLAGS=-Og CPPFLAGS=-DX=1 LDFLAGS=-Wl,-z,now swap >"$out" 2>&1
line=$(grep 'swap\.c' "$out")
case $line in
    mycc*-Og*-Wall*-Wextra*) pass "CC and CFLAGS from the user are used, warnings added" ;;
    *) fail "CC and CFLAGS from the user are used, warnings added" "$line" ;;
esac
case $line in
    *-DX=1*-Wl,-z,now*) pass "CPPFLAGS and LDFLAGS from the user are used" ;;
    *) fail "CPPFLAGS and LDFLAGS from the user are used" "$line" ;;
esac

if make -s --no-print-directory -C "$tmp" clean && [ ! -e "$tmp/swap" ]; then pass "make clean removes the binary"
else fail "make clean removes the binary"; fi
done_testing
