# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# Users a test makes and removes, and the one who asked (sudo).

# make_student [victim]: a user in $student, $student_uid ($victim,
# $victim_uid), its name recorded first for the next test's sweep_users.
make_student() {
    kind=${1:-student} name=swap-student-$$
    [ "$kind" = student ] || name=$name$(printf '%s' "$kind" | wc -c)
    echo "$name" | (umask 077 && dd of="$state_dir/test-user.$tag.$kind" conv=excl status=none) 2>/dev/null || return 1
    useradd --no-create-home --home-dir / --shell /bin/sh --user-group "$name" 2>"$tmp/useradd.err" ||
        { rm -f "$state_dir/test-user.$tag.$kind"; return 1; }
    users="$users $kind=$name"
    case $kind in
        student) student=$name student_uid=$(id -u "$name") ;;
        *) victim=$name victim_uid=$(id -u "$name") ;;
    esac
}
# need_users [victim]: root, the turn, a student (and a victim), or skip.
need_users() {
    is_root || skip_all "not root: the runs under test are root's"
    { command -v useradd && command -v runuser; } >/dev/null 2>&1 || skip_all "no useradd or runuser, to make an unprivileged user"
    swap_lock
    # shellcheck disable=SC2119 # a student, not a victim
    make_student || skip_all "cannot make a user: $(cat "$tmp/useradd.err")"
    [ -z "${1-}" ] || make_student victim || skip_all "cannot make a second user: $(cat "$tmp/useradd.err")"
}
as_student() { (cd / && exec runuser -u "$student" -- env -i PATH=/usr/bin:/bin HOME=/ "$@"); }
as_victim() { (cd / && exec runuser -u "$victim" -- env -i PATH=/usr/bin:/bin HOME=/ "$@"); }

# remove_student NAME TAG: her, her processes, files (removed as her: no
# link of hers followed), cgroups, the test's swap-canary.TAG folders.
# (A subshell: its names stay its own.)
remove_student() (
    # (kill -1 as her, one call: no list of PIDs her shells may reap.)
    runuser -u "$1" -- kill -KILL -1 2>/dev/null
    i=0
    while pgrep -u "$1" >/dev/null 2>&1 && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
    runuser -u "$1" -- find /tmp /var/tmp -mindepth 1 -maxdepth 1 -user "$1" -exec rm -rf {} + 2>/dev/null
    cgroup_mounts
    for m in $cg_v1 $cg_v2; do find "$m" -depth -type d -user "$1" -exec rmdir {} + 2>/dev/null; done
    # (Her hard links to a canary are root's inode, in a sticky folder.)
    for c in "/var/lib/swap-canary.$2" $(find /tmp /var/tmp -mindepth 1 -maxdepth 1 -type d -user 0 -name "swap-canary.$2.*" 2>/dev/null); do
        [ ! -f "$c/canary" ] ||
            find /tmp /var/tmp -mindepth 1 -maxdepth 1 -samefile "$c/canary" -exec rm -f {} + 2>/dev/null
        rm -rf "$c"
    done
    userdel "$1" 2>/dev/null
    ! id -u "$1" >/dev/null 2>&1
)
# sweep_users: killed tests' swap-canary.TAG folders and users (test-user.
# TAG.KIND, its owner gone); only swap-student-N, from UID 1000 up.
sweep_users() {
    for _sc in /var/lib/swap-canary.*; do
        case ${_sc#*canary.} in *[!0-9.]*|'') continue ;; esac
        [ -d "$_sc" ] && [ ! -L "$_sc" ] && ! owner_alive "${_sc#*canary.}" && rm -rf "$_sc"
    done
    for _su in "$state_dir"/test-user.*.*.*; do
        { [ -f "$_su" ] && [ ! -L "$_su" ]; } || continue
        _st=${_su##*/test-user.} _st=${_st%.*}
        ! owner_alive "$_st" || continue
        _su_name=$(head -c 64 "$_su" | head -n 1)
        case ${_su_name#swap-student-} in "$_su_name"|''|*[!0-9]*) continue ;; esac
        _su_uid=$(id -u "$_su_name" 2>/dev/null) && [ "$_su_uid" -lt 1000 ] && continue
        remove_student "$_su_name" "$_st" && rm -f "$_su" && echo "tests: the killed test's user $_su_name removed" >&2
    done
}

# asker_out: $asker_tmp, under sudo her folder for what root writes for
# her, tagged for her sweep.  as_asker CMD...: CMD as her.
asker_out() {
    if [ "$run_uid" = "$self_uid" ]; then asker_tmp=''; return 0; fi
    [ -z "$asker_tmp" ] || return 0
    # shellcheck disable=SC2016 # expanded by that sh
    asker_tmp=$(as_asker sh -c 'd=$(sh "$1" dirs | tail -n 1) && mktemp -d "$d/swap-test.$2.XXXXXX"' sh "$box" "$tag") &&
        [ -n "$asker_tmp" ]
}
# her_file FILE: FILE, or under sudo a copy she can open (her process opens
# it; $tmp is closed to her), in root's swap-canary.TAG/run, mode 755.
her_file() {
    [ "$run_uid" != "$self_uid" ] || { echo "$1"; return 0; }
    hf=/var/lib/swap-canary.$tag/run
    { [ -d "$hf" ] || mkdir -m 755 "${hf%/run}" "$hf"; } && cp "$1" "$hf/" && chmod 755 "$hf/${1##*/}" && echo "$hf/${1##*/}"
}
as_asker() {
    (cd / && exec setpriv --reuid="$run_uid" --regid="${SUDO_GID:-$run_uid}" --init-groups \
        env -i PATH=/usr/bin:/bin HOME=/ "$@")
}
# plant_at PID: a sleep of the student's at PID, just freed (the next PID,
# through ns_last_pid), in $sentinel (our child), or empty.
plant_at() {
    sentinel='' _pa_gid=$(id -g "$student") _pa_i=0
    while [ -z "$sentinel" ] && [ $_pa_i -lt 50 ]; do
        echo $(($1 - 1)) >/proc/sys/kernel/ns_last_pid
        setpriv --reuid="$student_uid" --regid="$_pa_gid" --clear-groups sleep 300 6>&- &
        if [ $! -eq "$1" ]; then sentinel=$!; else own_kill -KILL $!; wait $! 2>/dev/null; fi
        _pa_i=$((_pa_i + 1))
    done
}
