#!/bin/sh
# The container image (container/Containerfile) with a real engine.  On
# every run: its final stage, built around swap compiled here as the build
# stage compiles it, holds only the static binary, and a container started
# with a memory limit is the box: plainly it stays resident; with -m and
# --memory-swap 1g it swaps and -v names both limits; with --memory-swap
# equal to -m (no swap) it warns and is killed.  The boxed ones are
# small_box's (32 MB in an 8 MB container where pages are 4 KiB): the
# lesson's proportions, the docs' -m 64m at a quarter of the time;
# tests/03 runs the lesson's own size.  The build stage itself, compiling swap
# on a base image made from Debian's packages (no image registry is needed,
# but debootstrap takes a minute): with REQUIRE_CONTAINER=1 (CI) or
# TEST_BUILD_STAGE=1, or when a base kept by TEST_BUILD_STAGE=1 is at hand
# (docs/tests.md).  Everything runs in a store of its own, removed at the
# end: no container, image or layer is left in the engine's.
#
# The engine: podman (root), else docker if its daemon answers.  None
# installed: a skip, or with REQUIRE_CONTAINER=1 (CI) a failure.  One
# installed that cannot run a container: with REQUIRE_BOX=1 a failure.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"

no_engine() {
    if [ "${REQUIRE_CONTAINER:-0}" = 1 ]; then
        echo "1..1"
        echo "not ok 1 - container test could not run (REQUIRE_CONTAINER=1): $1"
        exit 1
    fi
    skip_all "$1"
}

# make image, whatever is installed: no engine at all is one line.
run make -s -C "$top" image ENGINES='no-such-engine-1 no-such-engine-2'
if [ "$rc" -ne 0 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'none of no-such-engine-1 no-such-engine-2 is installed' "$err"; then
    image_line="ok"
else
    image_line="exit $rc: $(cat "$out" "$err")"
fi

if command -v podman >/dev/null 2>&1 && is_root; then
    # A store of its own, and the settings some hosts need: runc (crun
    # refuses hosts that mount cgroup v1 and v2 side by side) and no default
    # ulimits (a sandbox may not raise them).
    # podman wants a runroot of at most 50 characters: root's own state
    # folder is short.
    mkdir -p "$tmp/store"
    runroot=$(mktemp -d "$state_dir/swap-run.$tag.XXXXXX") || no_engine "cannot make a runroot in $state_dir"
    conf=$tmp/containers.conf
    printf '[containers]\ndefault_ulimits = []\n' >"$conf"
    # Its locks as files in root's own folder (lock_type "file", in its
    # tmp_dir), not in /dev/shm/libpod_lock, a name any user may take first;
    # and its copies of images in the test's own folder, not /var/tmp.
    mkdir -p "$tmp/podman-tmp"
    printf '[engine]\nlock_type = "file"\ntmp_dir = "%s/libpod"\nimage_copy_tmp_dir = "%s"\n' "$runroot" "$tmp/podman-tmp" >>"$conf"
    command -v runc >/dev/null 2>&1 && printf 'runtime = "runc"\n' >>"$conf"
    # From the test's own folder: conmon writes a file "oom" into its
    # working directory when the kernel kills a container (seen with podman
    # 4.3 and runc), and the project's tree is no place for it.
    engine() { (cd "$tmp" && CONTAINERS_CONF=$conf podman --root "$tmp/store" --runroot "$runroot" "$@"); }
    name=podman
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    engine() { (cd "$tmp" && docker "$@"); }
    name=docker
elif command -v podman >/dev/null 2>&1; then
    no_engine "podman is installed, but this test runs it as root only (not root)"
else
    no_engine "neither podman nor docker is installed (Debian: apt-get install podman runc)"
fi
need_room 256
plan 18

ok "make image with no engine: one line, non-zero exit ($(cat "$err"))" [ "$image_line" = ok ]

base=localhost/swap-test-base:$tag img=localhost/swap-test:$tag staged=localhost/swap-test-staged:$tag
cleanup_engine() {
    engine rm -a -f >/dev/null 2>&1
    engine rmi -f "$img" "$staged" "$base" >/dev/null 2>&1
    [ "$name" = docker ] || engine rmi -a -f >/dev/null 2>&1
}
trap 'cleanup_engine; [ -z "${runroot-}" ] || rm -rf "$runroot"; cleanup' EXIT

# The final image, from the Containerfile's last stage, on every run: its
# build stage replaced by a folder holding swap built here exactly as that
# stage builds it (make LDFLAGS=-static), through a build context of the
# stage's name.  Docker's classic builder has no such contexts: there the
# build stage itself makes the image (below).
mkdir -p "$tmp/prebuilt/src"
cp "$top/Makefile" "$top/swap.c" "$tmp/prebuilt/src/"
if [ "$name" = podman ]; then
    t0=$(date +%s)
    if (cd "$tmp/prebuilt/src" && make -s LDFLAGS=-static) >"$err" 2>&1 &&
        run engine build --build-context "build=$tmp/prebuilt" -t "$img" -f "$top/container/Containerfile" "$top" &&
        [ "$rc" -eq 0 ]; then
        pass "$name build of the final stage, swap built here with LDFLAGS=-static ($(($(date +%s) - t0)) s)"
    else
        fail "$name build of the final stage, swap built here with LDFLAGS=-static" "$(cat "$out" "$err")"
        done_testing
    fi
fi

# The build stage, compiling swap in a Debian base: with REQUIRE_CONTAINER=1
# (CI) or TEST_BUILD_STAGE=1, on a base made now by debootstrap from the
# mirror the host uses; else when the base that a TEST_BUILD_STAGE=1 run
# kept (root's own work folder, docs/tests.md) is at hand.
suite=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release 2>/dev/null)
[ -n "$suite" ] || suite=bookworm
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
cache=$work_dir/container-base.$suite-$arch.tar
stage=''
if [ "${REQUIRE_CONTAINER:-0}" = 1 ]; then stage=fresh
elif [ "${TEST_BUILD_STAGE:-0}" = 1 ]; then stage=keep
elif [ -f "$cache" ] && [ ! -L "$cache" ] && [ "$(stat -c %u "$cache")" = "$(id -u)" ]; then stage=cached
fi
# Docker's classic builder has no build contexts: its final image comes from
# the build stage, always.
[ "$name" = podman ] || [ -n "$stage" ] || stage=fresh
if [ -n "$stage" ] && [ "$stage" != cached ] && ! command -v debootstrap >/dev/null 2>&1; then
    [ "$stage" = fresh ] && no_engine "no debootstrap, to make the build stage's base image from Debian's packages"
    stage=''
fi
# What the build stage did, also on stderr: make check's own output (CI's)
# shows it.
said() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
t0=$(date +%s)
if [ -z "$stage" ]; then
    said "the build stage: not run, no base at hand (TEST_BUILD_STAGE=1 makes one)"
    skip "a base image with a compiler" "no base at hand: TEST_BUILD_STAGE=1 makes one with debootstrap and keeps it in $cache"
    skip "$name build: the build stage compiles swap" "no base at hand (TEST_BUILD_STAGE=1)"
    skip "the image from the build stage runs" "no base at hand (TEST_BUILD_STAGE=1)"
else
    if [ "$stage" = cached ]; then
        engine import - "$base" <"$cache" >"$out" 2>"$err" && made="kept in $cache"
    else
        mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
        [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
        debootstrap --variant=minbase --include=gcc,libc6-dev,make "$suite" "$tmp/rootfs" "${mirror:-http://deb.debian.org/debian}" >"$tmp/debootstrap.log" 2>&1 &&
            tar -C "$tmp/rootfs" --exclude=./usr/share/doc --exclude=./usr/share/man --exclude=./usr/share/locale \
                --exclude=./var/cache/apt --exclude=./var/lib/apt/lists -c . >"$tmp/base.tar" &&
            engine import - "$base" <"$tmp/base.tar" >"$out" 2>"$err" &&
            made="made now from Debian's $suite packages"
        rm -rf "$tmp/rootfs"
        # Kept only when asked for, and only as a new file of this user's.
        if [ -n "${made-}" ] && [ "$stage" = keep ] && [ ! -e "$cache" ] && mv -n "$tmp/base.tar" "$cache"; then
            made="$made, kept in $cache"
        fi
    fi
    base_s=$(($(date +%s) - t0))
    if [ -n "${made-}" ]; then pass "a base image with a compiler, $made ($base_s s)"
    else fail "a base image with a compiler ($stage)" "$(tail -n 5 "$tmp/debootstrap.log" 2>/dev/null)" "$(cat "$err")"; done_testing; fi
    t0=$(date +%s)
    run engine build --build-arg "BASE=$base" -t "$staged" -f "$top/container/Containerfile" "$top"
    build_s=$(($(date +%s) - t0))
    is "$name build: the build stage compiles swap, exit 0 ($build_s s)" "$rc" -eq 0
    [ "$rc" -eq 0 ] || { show_run; done_testing; }
    run engine run --rm "$staged" 16M
    is "the image from the build stage runs (exit 0, three lines)" "$rc$(wc -l <"$out")" -eq 03
    [ "$rc$(wc -l <"$out")" -ne 03 ] ||
        said "the build stage: a base image with a compiler, $made ($base_s s); $name build of the stage, swap compiled in it ($build_s s); its image ran: $(tail -n 1 "$out")"
    [ "$name" = podman ] || img=$staged
fi
size=$(engine image inspect --format '{{.Size}}' "$img")
is "the final image holds only the static binary: $size bytes, under 2 MB" "${size:-99999999}" -lt 2097152

# The plain run and the one with no swap need no swap device: they run
# beside the boxed one (their outputs apart), to save their time.
# started NAME CMD...: CMD in the background, its output in $tmp/NAME.*;
# finished NAME: waits for it, then its output is the test's ($out, $err, $rc).
started() { n_=$1; shift; ("$@" >"$tmp/$n_.out" 2>"$tmp/$n_.err"; echo $? >"$tmp/$n_.rc") & eval "pid_$n_=\$!"; }
finished() {
    eval "wait_max=1200 reap \"\$pid_$1\""
    cp "$tmp/$1.out" "$out" && cp "$tmp/$1.err" "$err" && rc=$(cat "$tmp/$1.rc")
}
# The two boxed ones are made before the turn (the engine's own setup
# needs none) and only started in it; the cleanup below removes them.
small_box
if ! { boxed=$(engine create -m "${box_mb}m" --memory-swap 1g "$img" -v "${run_mb}M") &&
    noswap=$(engine create -m "${box_mb}m" --memory-swap "${box_mb}m" "$img" "${run_mb}M"); }; then
    fail "$name create: the two boxed containers" "$boxed $noswap"
fi
started plain engine run --rm "$img"
if want_swap; then
    started boxed engine start -a "$boxed"
    started noswap engine start -a "$noswap"
fi
finished plain
is "plainly: exit 0" "$rc" -eq 0
is "plainly: RSS at least 256 MB after writing" "$(reported 2 rss)" -ge 256
is "plainly: no swap" "$(reported 3 swap)" -eq 0
[ "$failures" -eq 0 ] || show_run >&2

if ! want_swap; then
    for t in "boxed: exit 0" "boxed: RSS" "boxed: swap" "boxed: read faults" "boxed: -v memory limit" "boxed: -v swap limit" \
        "no swap: warning" "no swap: killed"; do box_skip "$t" "$swap_why"; done
else
finished boxed
show_run
in_box="-m ${box_mb}m --memory-swap 1g, $run_mb MB"
is "$in_box: exit 0 (every page read back intact)" "$rc" -eq 0
is "$in_box: RSS at most $box_mb MB after writing" "$(reported 2 rss)" -le "$box_mb"
is "$in_box: at least $((run_mb * 5 / 8)) MB in swap after writing" "$(reported 2 swap)" -ge $((run_mb * 5 / 8))
npages=$((run_mb * 1048576 / $(getconf PAGESIZE))) cluster=$(cat /proc/sys/vm/page-cluster)
m2=$(reported 2 major) m3=$(reported 3 major)
is "$in_box: the read step adds at least $((npages / (2 << cluster))) major faults" \
    "$((${m3:-0} - ${m2:-0}))" -ge $((npages / (2 << cluster)))
ok "-v names the $box_mb MB limit" grep -qx "memory limit:   $box_mb MB" "$out"
ok "-v names the $((1024 - box_mb)) MB of swap (--memory-swap is memory plus swap)" grep -qx "swap limit:     $((1024 - box_mb)) MB" "$out"

finished noswap
ok "--memory-swap ${box_mb}m (no swap): the warning on stderr" grep -q "^swap: warning: memory limit $box_mb MB is below $run_mb MB and the swap limit is 0, so the kernel will kill this program\$" "$err"
is "--memory-swap ${box_mb}m (no swap): killed by the kernel (exit 137)" "$rc" -eq 137
fi

# (What is left to do needs no turn.)
swap_done
cleanup_engine
if [ "$name" = podman ]; then left=$(engine ps -a -q; engine images -a -q)
else left=$(docker ps -a -q --filter "ancestor=$img"; docker image inspect -f '{{.Id}}' "$img" "$base" 2>/dev/null); fi
ok "nothing left in the engine: no container, no image, no layer" [ -z "$left" ]
done_testing
