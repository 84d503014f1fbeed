#!/bin/sh
# SIZE: the write label names the size, and RSS follows it.  Sizes are
# rounded up to whole pages.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_room 1024
plan 8

for case in 64M:64 1G:1024; do
    set -- "${case%:*}" "${case#*:}"
    run "$swap" "$1"
    is "$1: exit status 0" "$rc" -eq 0
    if sed -n 2p "$out" | grep -q "^after writing $2 MB: "; then
        pass "$1: the label says 'after writing $2 MB:'"
    else
        fail "$1: the label says 'after writing $2 MB:'" "$(sed -n 2p "$out")"
    fi
    is "$1: after writing, RSS at least $2 MB (less $(rss_lag_mb) MB the count may lag)" "$(field 2 rss)" -ge $(($2 - $(rss_lag_mb)))
done

page=$(getconf PAGESIZE)
run "$swap" $((page + 1))
is "$((page + 1)) bytes: exit status 0" "$rc" -eq 0
want="after writing $((2 * page / 1024)) KB:"
if sed -n 2p "$out" | grep -q "^$want "; then
    pass "$((page + 1)) bytes round up to two pages: '$want'"
else
    fail "$((page + 1)) bytes round up to two pages: '$want'" "$(sed -n 2p "$out")"
fi
done_testing
