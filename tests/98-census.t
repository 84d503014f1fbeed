#!/bin/sh
# The census: of everything root's suite created, what went into a folder
# that every user may write (/tmp, /var/tmp, /dev/shm), and how.  Every
# test before this one ran under strace (tests/lib.sh, census_start), with
# all it started: compilers, valgrind, podman, debootstrap, the lab's
# flows, the unprivileged users of tests/19 (told apart by their setuid).
# Root may create there only exclusively (O_CREAT|O_EXCL, or mkdir, link,
# symlink and mknod, which fail on any name already there): an open with
# O_CREAT and no O_EXCL, or an open for writing of a file already there,
# follows whatever another user planted at that name (valgrind's debugger
# files did, until the tests gave it a private TMPDIR and --vgdb=no).  Nor
# may root open for writing the sysctls that protect users from each other
# (fs.protected_*).  Runs last but for 99, alone, after every other test.
# shellcheck disable=SC2034 # read by tests/lib.sh
no_census=1
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
is_root || skip_all "not root: the census is of root's suite"
[ "${TEST_CENSUS:-1}" = 1 ] || skip_all "TEST_CENSUS=0: the tests ran without strace"
command -v strace >/dev/null 2>&1 || skip_all "strace is not installed: no census was taken"
c=$(census_dir) || skip_all "no census folder"
traces=$(find "$c" -maxdepth 1 -name '*.trace' 2>/dev/null | wc -l)
[ "$traces" -gt 0 ] || skip_all "no test of this run was traced ($c): run the suite with make check"
plan 4

# The census itself is tested first, on a real trace of a known program:
# valgrind with its debugger files (--vgdb=yes) creates one with O_CREAT
# and no O_EXCL.  (In a private folder, named /tmp in the trace: the test
# must not do in /tmp what it looks for.)
if command -v valgrind >/dev/null 2>&1; then
    mkdir -m 700 "$tmp/k"
    TMPDIR=$tmp/k census_trace "$tmp/known.trace" valgrind -q --vgdb=yes true >/dev/null 2>&1
    sed -i "s|\"$tmp/k/|\"/tmp/|g" "$tmp/known.trace"
    if census "$tmp/known.trace" | grep -q '^BAD [^ ]* [0-9]* open[a-z0-9]* /tmp/vgdb-pipe-shared-mem-vgdb-'; then
        pass "the census catches valgrind's debugger file: $(census "$tmp/known.trace" | grep '^BAD' | head -n 1)"
    else
        fail "the census catches valgrind's debugger file" "$(census "$tmp/known.trace")" "$(grep -c . "$tmp/known.trace") trace lines"
    fi
else
    skip "the census catches valgrind's debugger file" "valgrind is not installed"
fi

diag "census of $traces tests' traces in $c ($(cat "$c"/*.trace | wc -l) lines)"
# (make check says how many tests it runs; all are traced but those that
# say no_census=1: 09, 21, 98 and 99.)
untraced=$(grep -l '^no_census=1' "$top"/tests/*.t | sed 's|.*/||; s/-.*//' | tr '\n' ' ')
if [ -n "${TEST_COUNT-}" ]; then
    is "every test but $untraced was traced, a trace each ($(find "$c" -name '*.trace' -printf '%f ' | sed 's/-[^ ]*//g'))" "$traces" -eq $((TEST_COUNT - $(echo "$untraced" | wc -w)))
else
    skip "every test was traced" "not run by make check: how many tests ran is unknown here"
fi
census "$c"/*.trace >"$tmp/census"
diag "root's creations in shared folders: $(grep -c . "$tmp/census")"
awk '{ print $1, $2, $4, $5 }' "$tmp/census" | sort | uniq -c | sort -rn | head -n 20 | while read -r line; do diag "$line"; done
bad=$(grep '^BAD' "$tmp/census" | head -n 20)
is "root created nothing in a shared folder but exclusively${bad:+: $bad}" "${#bad}" -eq 0
if grep -q 'protected_' "$tmp/census"; then fail "no test opened fs.protected_* for writing" "$(grep protected_ "$tmp/census")"
else pass "no test opened fs.protected_* for writing"; fi
rm -rf "$c"
done_testing
