#!/bin/sh
# The build: warning-free under gcc and clang with -Wall -Wextra -Werror,
# through the Makefile, which must honour the user's CC and CFLAGS.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
plan 6

# Build a copy in $tmp so the ./swap the other tests use is not touched.
cp "$top/swap.c" "$top/Makefile" "$tmp/"
build() { run make -s --no-print-directory -B -C "$tmp" CC="$1" CFLAGS="-O2 -Werror" swap; }

for cc in gcc clang; do
    if command -v "$cc" >/dev/null 2>&1; then
        build "$cc"
        ok "$cc builds without warnings (-Wall -Wextra -Werror)" silent
    else
        skip "$cc builds without warnings" "$cc is not installed"
    fi
done

line=$(make -n -B -C "$tmp" CC=mycc CFLAGS=-Og CPPFLAGS=-DX=1 LDFLAGS=-Wl,-z,now swap 2>&1 | grep 'swap\.c')
ok "CC and CFLAGS from the user are used, warnings added" matches "$line" 'mycc*-Og*-Wall*-Wextra*'
ok "CPPFLAGS and LDFLAGS from the user are used" matches "$line" '*-DX=1*-Wl,-z,now*'

run make -s --no-print-directory -C "$tmp" clean
ok "make clean: exit status 0" clean
ok "make clean removes the binary" [ ! -e "$tmp/swap" ]
done_testing
