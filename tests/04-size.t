#!/bin/sh
# SIZE: the write label names the size, and RSS follows it.  Sizes are
# rounded up to whole pages.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_room 1024
plan 8

for case in 64M:64 1G:1024; do
    size=${case%:*} mb=${case#*:}
    run "$swap" "$size"
    is "$size: exit status 0" "$rc" -eq 0
    ok "$size: the label says 'after writing $mb MB:'" line_is 2 "^after writing $mb MB: "
    is "$size: after writing, RSS at least $mb MB (less $(rss_lag_mb) MB the count may lag)" "$(reported 2 rss)" -ge $((mb - $(rss_lag_mb)))
done

page=$(getconf PAGESIZE)
run "$swap" $((page + 1))
is "$((page + 1)) bytes: exit status 0" "$rc" -eq 0
want="after writing $((2 * page / 1024)) KB:"
ok "$((page + 1)) bytes round up to two pages: '$want'" line_is 2 "^$want "
done_testing
