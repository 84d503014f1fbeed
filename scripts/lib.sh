# SPDX-License-Identifier: MIT
#
# lib.sh: what every script of the lab needs, in one place: owner tags and
# start times, this user's own folders and files made safely, the /proc and
# cgroup readers, and the records a run writes before it changes the
# machine.  Sourced, never run: by scripts/box, which the lab's flows
# (scripts/lab, cache-vs-anon, backends) and the tests source in turn,
# with box_library=1 and box_self set to its path (box finds this folder
# from it: swap_scripts).  It loads the rooms the flows share with box:
#   scripts/report  how swap's records are read (record_line);
#   scripts/gate    what root runs for somebody, and with whose rights;
#   scripts/undo    the records' kinds, the sweep, and the guard.
# shellcheck shell=sh disable=SC2034,SC2154 # (its names are shared with the scripts that source it)
[ -z "${swap_lib_loaded-}" ] || return 0
swap_lib_loaded=1

me=box
# (Printable: what it says may hold a name of hers, as the gate read it.)
say() { printf '%s: %s\n' "$me" "$*" | printable >&2; }
# printable: its input as it may reach a terminal of root's, less the
# control characters but tab and newline, and C1's in UTF-8 (\302\200 to
# \302\237, until none is left: removing one may join another): an escape
# sequence can make a terminal answer, as if typed.  (scripts/asker's copy
# does the same to a run's terminal output.)
c1=$(printf '\302[\200-\237]')
printable() { LC_ALL=C tr -d '\000-\010\013-\037\177' | LC_ALL=C sed -e :a -e "s/$c1//g" -e ta; }

# proc_stat PID: from /proc/PID/stat, the state (field 3) into stat_state
# and the start time (field 22) into stat_start, counted after the command
# name, which may hold spaces and parentheses; 1 if there is no PID.  By
# the shell's own read and expansions: the sweep does this for every name
# it meets, and a process per look costs seconds on an emulated machine.
proc_stat() {
    stat_state='' stat_start='' stat_ppid=''
    { IFS= read -r stat_rest <"/proc/$1/stat"; } 2>/dev/null || return 1
    case $stat_rest in *") "*) ;; *) return 1 ;; esac
    stat_rest=${stat_rest##*") "}
    stat_state=${stat_rest%% *}
    stat_ppid=${stat_rest#* }
    stat_ppid=${stat_ppid%% *}
    stat_i=1
    while [ "$stat_i" -lt 20 ]; do
        case $stat_rest in *" "*) stat_rest=${stat_rest#* } ;; *) return 1 ;; esac
        stat_i=$((stat_i + 1))
    done
    stat_start=${stat_rest%% *}
}
# running_child PID: a child of this shell that has not ended, told by the
# shell alone: it starts no process, so reaps none while it looks.  (This
# shell's PID by /proc/self: in a subshell $$ is the parent's.)
running_child() {
    proc_stat "$1" || return 1
    read -r rc_self _ </proc/self/stat || return 1
    [ "$stat_state" != Z ] && [ "$stat_ppid" = "$rc_self" ]
}
# start_time PID: field 22 of /proc/PID/stat; nothing if there is no PID.
start_time() { proc_stat "$1" && printf '%s\n' "$stat_start"; }
# This shell's tag (the lab's, when it sources this file), by the shell's
# own read: a guard started again on a machine out of PIDs loads this file
# with no process to spare.
proc_stat $$
tag=$$.$stat_start
# This user's (effective) UID, as id -u gives it: the second number of
# the Uid: line of /proc/self/status, read by the shell itself (every
# helper and flow starts with this; a process for it costs an emulated
# machine 50 ms).
uid=''
while read -r uid_key _ uid _; do
    [ "$uid_key" = Uid: ] && break
    uid=''
done 2>/dev/null </proc/self/status
case $uid in ''|*[!0-9]*) uid=$(id -u) ;; esac

# Where a run keeps what it makes.  Never a world-writable folder such as
# /tmp or /var/tmp: anyone may plant a link, a FIFO or a record there, and
# root would follow or obey it.  Each folder is this user's own, mode 0700,
# below folders only root or this user can change, checked before every use
# (box_dirs); nobody else can put anything in it or move it away.
#   state_dir: records of changed settings, on a file system emptied at boot,
#     as the settings themselves are (root: /run/swap-lab);
#   work_dir: temporary swapfiles, the 1997 script's file, temporary
#     folders: on a disk, since swapon refuses a file on tmpfs
#     (root: /var/lib/swap-lab).
# A normal user makes neither swapfiles nor settings: one folder for both,
# $XDG_RUNTIME_DIR/swap-lab, or else /tmp/swap-lab-UID.  Another user who
# made that name first blocks nobody: the run then keeps to a folder of its
# own with a name nobody can guess, /tmp/swap-lab-UID.XXXXXX (the first
# such folder of this user's, or a new one).  $TMPDIR plays no part: the
# tests give the tools they run a private one, and the same runs must find
# the same folders.  SWAP_LAB_DIR=DIR puts both in DIR: checked all the same.
if [ -n "${SWAP_LAB_DIR-}" ]; then
    state_dir=$SWAP_LAB_DIR work_dir=$SWAP_LAB_DIR
elif [ "$uid" -eq 0 ]; then
    state_dir=/run/swap-lab work_dir=/var/lib/swap-lab
elif [ -n "${XDG_RUNTIME_DIR-}" ]; then
    state_dir=$XDG_RUNTIME_DIR/swap-lab work_dir=$state_dir
else
    state_dir=/tmp/swap-lab-$uid work_dir=$state_dir
fi

# dir_ok DIR...: each a real folder (not a link), this user's, mode 700,
# and every folder above it safe (parents_ok); else why not in dir_why,
# the folder at fault in dir_bad, and 1.  One stat for them all: box_dirs
# checks two folders before every run, and a process costs an emulated
# machine 50 ms.
dir_ok() {
    for dir_bad do
        if [ -L "$dir_bad" ]; then dir_why="$dir_bad is a symbolic link"; return 1; fi
        [ -d "$dir_bad" ] || { dir_why="$dir_bad is not a folder"; return 1; }
    done
    folders_ok self "$@"
}

# parents_ok DIR: from / down to DIR's parent, each folder is a real one
# (no symbolic link), owned by root or this user, and writable by nobody
# else unless sticky (as /tmp is: there only an entry's owner may rename or
# remove it).  Otherwise its owner, or whoever may write it, could rename
# DIR away and put a folder of their own in its place.  No "." or "..".
# Prints why not.
parents_ok() { folders_ok above "$1" || { echo "$dir_why"; return 1; }; }

# folders_ok self|above DIR...: the checks of dir_ok (self: DIR itself
# too, checked first) or of parents_ok (above: only the folders above
# it), for each DIR in turn, from the owners and modes of all of them
# read by one stat.  The folders above a DIR are its path's components
# (up_start, up_next), walked once to name them to stat and once more to
# read its answers in the same order.
folders_ok() {
    fo_self=$1 fo_pwd=''
    shift
    fo_n=$#
    for dir_bad do
        case $dir_bad in /*) fo_p=$dir_bad ;; *) fo_pwd=${fo_pwd:-$(pwd -P)} fo_p=$fo_pwd/$dir_bad ;; esac
        case /$fo_p/ in */./*|*/../*) dir_why="$dir_bad: no . or .. in the path, please"; return 1 ;; esac
        [ "$fo_self" != self ] || set -- "$@" "$dir_bad"
        up_start "$fo_p"
        while up_next; do set -- "$@" "$up"; done
    done
    # (In a subshell, the DIRs shifted away: stat is given the folders.)
    fo_modes=$(shift "$fo_n" && stat -c '%u %a' -- "$@" 2>/dev/null) || {
        dir_bad=$1 dir_why="a folder above $1${2:+ or $2} cannot be looked at"
        return 1
    }
    fo_i=0
    for dir_bad do
        fo_i=$((fo_i + 1))
        [ "$fo_i" -le "$fo_n" ] || break
        if [ "$fo_self" = self ]; then
            fo_next
            [ "${fo_m% *}" = "$uid" ] || { dir_why="$dir_bad belongs to UID ${fo_m% *}, not to $uid"; return 1; }
            [ "${fo_m#* }" = 700 ] || { dir_why="$dir_bad has mode ${fo_m#* }, not 700"; return 1; }
        fi
        case $dir_bad in /*) fo_p=$dir_bad ;; *) fo_p=$fo_pwd/$dir_bad ;; esac
        up_start "$fo_p"
        while up_next; do
            fo_next
            if [ -L "$up" ]; then dir_why="$up, above $dir_bad, is a symbolic link"; return 1; fi
            case ${fo_m% *} in
                0|"$uid") ;;
                *) dir_why="$up, above $dir_bad, belongs to UID ${fo_m% *}, who could move it away"; return 1 ;;
            esac
            if [ $((0${fo_m#* } & 022)) -ne 0 ] && [ $((0${fo_m#* } & 01000)) -eq 0 ]; then
                dir_why="$up, above $dir_bad, may be written by others (mode ${fo_m#* }, not sticky)"
                return 1
            fi
        done
    done
}
# fo_next: the next line of stat's answer, into fo_m.
fo_next() { fo_m=${fo_modes%%"$nl"*} fo_modes=${fo_modes#*"$nl"}; }
# up_start PATH, then up_next while it succeeds: into up, the folders from
# / down to PATH's parent, top first, by the shell's own expansions.
up_start() { up='' up_rest=${1#/}; }
up_next() {
    if [ -z "$up" ]; then up=/; return 0; fi
    case $up_rest in */*) ;; *) return 1 ;; esac
    up=${up%/}/${up_rest%%/*} up_rest=${up_rest#*/}
    up_rest=${up_rest#/}
}
nl='
'

# box_dirs: make the two folders if they are missing, then check them; one
# line and 1 when either is not safe to use.  The tools the runs start get
# the work folder as TMPDIR: nothing of theirs goes into a shared folder.
box_dirs() {
    # Made first, then looked at: a fallback name squatted between a look
    # and the mkdir is seen as squatted, not refused.
    for d in "$state_dir" "$work_dir"; do
        [ -e "$d" ] || [ -L "$d" ] || mkdir -m 700 "$d" 2>/dev/null
    done
    fresh_fallback
    if [ "$state_dir" = "$work_dir" ]; then set -- "$state_dir"; else set -- "$state_dir" "$work_dir"; fi
    if ! dir_ok "$@"; then
        say "refusing to keep state in $dir_bad: $dir_why (remove it if it is yours, or set SWAP_LAB_DIR to a folder of yours with mode 700, e.g. mkdir -m 700 ~/swap-lab)"
        return 1
    fi
    TMPDIR=$work_dir
    export TMPDIR
}

# fresh_fallback: /tmp/swap-lab-UID made first by someone else (or not a
# folder of ours): this user's first /tmp/swap-lab-UID.XXXXXX that passes,
# else a new one (mktemp: a name nobody can guess, made exclusively).
fresh_fallback() {
    [ -z "${SWAP_LAB_DIR-}" ] && [ "$state_dir" = "/tmp/swap-lab-$uid" ] || return 0
    { [ ! -e "$state_dir" ] && [ ! -L "$state_dir" ]; } && return 0
    # A real folder of this user's is the one to use (dir_ok then checks
    # its mode); anything else there (another user's folder, a link, a
    # FIFO, a hard link to a file of this user's that another user made)
    # is a squat, and the run keeps to a folder of its own.
    if [ -d "$state_dir" ] && [ ! -L "$state_dir" ] && [ -O "$state_dir" ]; then return 0; fi
    # Another user may have made thousands of folders of this name: only
    # this user's own real folders are looked at further, and that is told
    # by the shell's own tests, with no process started for the others.
    for d in "$state_dir".??????; do
        if [ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ] && dir_ok "$d"; then
            state_dir=$d work_dir=$d
            return 0
        fi
    done
    d=$(mktemp -d "$state_dir.XXXXXX") || return 0
    say "$state_dir is not a folder of yours ($(stat -c '%F of UID %u' "$state_dir" 2>/dev/null)): this user's runs keep their state in $d"
    state_dir=$d work_dir=$d
}

# Bytes, as the kernel and ./swap read K, M and G (powers of 1024).
bytes() {
    awk -v s="$1" 'BEGIN {
        if (s !~ /^[0-9]+[KkMmGg]?$/) exit 1
        n = s + 0; u = substr(s, length(s))
        if (u ~ /[Kk]/) n *= 1024; else if (u ~ /[Mm]/) n *= 1048576; else if (u ~ /[Gg]/) n *= 1073741824
        printf "%.0f\n", n
    }'
}

# new_file FILE: create FILE, mode 600, with what comes on stdin; fails if
# anything at all is there already (O_CREAT|O_EXCL, which no link, FIFO or
# file can get past; the shell's noclobber would open a FIFO or a device).
new_file() { (umask 077 && dd of="$1" conv=excl status=none) 2>/dev/null; }

# cgroup_mounts: the mount points of the cgroup v2 tree (cg_v2), of the
# v1 tree that carries the memory controller (cg_v1), of the v1 trees
# that carry the freezer (cg_fz: where a v1 box gets its freezer cgroup)
# and pids (cg_pids), any of them empty, of
# every cgroup tree (cg_all: where the sweep looks for boxes), and the
# type of the file system seen at /sys/fs/cgroup (cg_top: the last mounted
# there, as stat -f would say; cgroup2 on a unified host); and this
# shell's own cgroup below each tree's mount (cg_self_v1 in the v1 memory
# hierarchy, cg_self_v2 in v2: /proc/self/cgroup, read by the same awk,
# whose cgroup is the shell's).  Looked up once a shell: the mounts do not
# move while it runs, and no script moves itself to another cgroup (a box
# is entered by the child that runs in it).  mountinfo has optional
# fields, so find the " - "; a cgroup path may hold a ":", so split only
# at the first two.
cgroup_mounts() {
    [ -z "${cg_looked-}" ] || return 0
    cg_m=$(awk '
    FILENAME == "/proc/self/cgroup" {
        i = index($0, ":"); rest = substr($0, i + 1); j = index(rest, ":")
        ctl = substr(rest, 1, j - 1); path = substr(rest, j + 1)
        if (self1 == "" && ("," ctl ",") ~ /,memory,/) self1 = path
        if (substr($0, 1, i - 1) == "0" && ctl == "") self2 = path
        next
    }
    {
        for (i = 7; i <= NF; i++) if ($i == "-") break
        if (v2 == "" && $(i + 1) == "cgroup2") v2 = $5
        if (v1 == "" && $(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,memory,/) v1 = $5
        if (fz == "" && $(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,freezer,/) fz = $5
        if (pids == "" && $(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,pids,/) pids = $5
        if ($5 == "/sys/fs/cgroup") top = $(i + 1)
        if ($(i + 1) ~ /^cgroup2?$/ && !seen[$5]++) all = all " " $5
    } END { print v1; print fz; print pids; print v2; print top; print all; print self1; print self2; print "." }' /proc/self/mountinfo /proc/self/cgroup) || return 1
    # (Its last line, ".": the whole answer came back.)
    case $cg_m in *"$nl".) ;; *) return 1 ;; esac
    cg_v1=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_fz=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_pids=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_v2=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_top=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_all=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_self_v1=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_self_v2=${cg_m%%"$nl"*} cg_looked=1
}
cg_looked='' cg_v1='' cg_fz='' cg_pids='' cg_v2='' cg_top='' cg_all='' cg_self_v1='' cg_self_v2=''

# has_word FILE WORD: FILE's first line (a cgroup's list of controllers)
# holds WORD, read by the shell itself.
has_word() {
    { read -r hw_line <"$1"; } 2>/dev/null || return 1
    case " $hw_line " in *" $2 "*) return 0 ;; esac
    return 1
}

# kill_box DIR: every task in the cgroup DIR ended, threads included,
# through the cgroup itself, never through a PID remembered from before:
#  - v2 since Linux 5.14: cgroup.kill, one write (the kernel kills every
#    task of the cgroup, cgroup_kill in kernel/cgroup/cgroup.c);
#  - else, where the box can be frozen (its own cgroup.freeze on v2, 5.2
#    and later; on v1 the freezer cgroup of the same name that run_box
#    made beside it, or DIR itself if it is a freezer cgroup): frozen,
#    killed, thawed (frozen_kill), and waited for;
#  - then, for whatever is left (in the box and not in its freezer, or a
#    box that would not freeze), in rounds (kill_rounds).
# No process is signalled twice (kb_done).  1 when something in it would
# not end.
kill_box() {
    if [ -f "$1/cgroup.kill" ]; then
        echo 1 2>/dev/null >"$1/cgroup.kill"
        return
    fi
    cgroup_mounts
    freezer_of "$1"
    kb_try=0 kb_done=' ' kb_idle=40
    while [ -n "$kb_fz" ] && [ $kb_try -lt 3 ] && ! box_empty "$kb_fz" && frozen_kill "$kb_fz"; do
        # (What was killed while frozen ends once thawed: looked for up to
        # some two seconds; what joined the freezer meanwhile is frozen and
        # killed in turn.)
        kb_i=0
        until box_empty "$kb_fz"; do
            [ $kb_i -lt 40 ] || { kb_idle=5; break; }
            nap "$kb_i"
            kb_i=$((kb_i + 1))
        done
        kb_try=$((kb_try + 1))
    done
    kill_rounds "$1"
}

# freezer_of DIR: the freezer that holds what is in the box DIR, into
# kb_fz (empty where there is none): DIR itself on v2 and where DIR is a
# v1 freezer cgroup, else the v1 freezer cgroup of DIR's name at the top
# of the freezer tree (where run_box makes it: so that a sweep run from
# another cgroup finds it by the name alone).
freezer_of() {
    kb_fz=''
    if [ -f "$1/cgroup.freeze" ] || [ -f "$1/freezer.state" ]; then
        kb_fz=$1
    elif [ -n "$cg_fz" ] && [ "$cg_fz" != "$cg_v1" ] && [ -f "$cg_fz/${1##*/}/freezer.state" ]; then
        kb_fz=$cg_fz/${1##*/}
    fi
}

# frozen_kill FZ: the freezer cgroup FZ frozen, each process in it not
# yet in kb_done sent SIGKILL and added there, and thawed; 1 if none was
# new, or (thawed, nothing signalled) if it is not frozen within some two
# seconds (a task in an uninterruptible sleep the freezer waits for).
# Once FZ reads frozen, no task in it can exit or fork until the thaw (v1: __refrigerator, kernel/freezer.c, leaves its
# loop only when the cgroup no longer freezes, a SIGKILL pending or not;
# freezer_fork and freezer_attach, kernel/cgroup/legacy_freezer.c, freeze
# a task forked or moved into it; v2: Documentation/admin-guide/
# cgroup-v2.rst, cgroup.freeze), so no PID read from it can be freed
# between the look and the kill, and none is signalled twice (on v2 a
# frozen task killed ends at once: its PID is not looked at again).  A
# thread-group leader that has ended while its threads run on (it called
# pthread_exit: Z in /proc) keeps its PID until the last of them ends
# (delay_group_leader, include/linux/sched/signal.h) and a signal to it
# reaches the group (kill_pid_info, kernel/signal.c: PIDTYPE_TGID): its
# threads in tasks (v1) or cgroup.threads (v2) name it by their Tgid, and
# cgroup.procs lists it too since Linux 5.3 (css_task_iter_advance,
# kernel/cgroup/cgroup.c).
frozen_kill() {
    if [ -f "$1/freezer.state" ]; then
        echo FROZEN 2>/dev/null >"$1/freezer.state" || return 1
    else
        echo 1 2>/dev/null >"$1/cgroup.freeze" || return 1
    fi
    fk_i=0
    until frozen "$1"; do
        [ $fk_i -lt 40 ] || { thaw "$1"; return 1; }
        nap "$fk_i"
        fk_i=$((fk_i + 1))
    done
    fk_new=''
    threads_file "$1"
    for fk_f in "$tf" "$1/cgroup.procs"; do
        while read -r fk_t; do
            task_status "$fk_t" || continue
            case $kb_done in *" $ts_tgid "*) continue ;; esac
            kb_done="$kb_done$ts_tgid " fk_new=1
            kill -KILL "$ts_tgid" 2>/dev/null
        done 2>/dev/null <"$fk_f"
    done
    thaw "$1"
    [ -n "$fk_new" ]
}
# frozen FZ: FZ has finished freezing.  thaw FZ: let it go.
frozen() {
    if [ -f "$1/freezer.state" ]; then
        { read -r fz_s <"$1/freezer.state"; } 2>/dev/null && [ "$fz_s" = FROZEN ]
        return
    fi
    while read -r fz_k fz_v; do
        [ "$fz_k" != frozen ] || { [ "$fz_v" = 1 ]; return; }
    done 2>/dev/null <"$1/cgroup.events"
    return 1
}
thaw() {
    if [ -f "$1/freezer.state" ]; then
        echo THAWED 2>/dev/null >"$1/freezer.state"
    else
        echo 0 2>/dev/null >"$1/cgroup.freeze"
    fi
}
# threads_file DIR: the file that lists every thread in DIR, into tf:
# tasks (v1), cgroup.threads (v2), else cgroup.procs.
threads_file() {
    if [ -f "$1/tasks" ]; then tf=$1/tasks
    elif [ -f "$1/cgroup.threads" ]; then tf=$1/cgroup.threads
    else tf=$1/cgroup.procs; fi
}
# box_empty DIR: no thread and no process listed in DIR (or DIR is gone).
box_empty() {
    [ -d "$1" ] || return 0
    threads_file "$1"
    for be_f in "$tf" "$1/cgroup.procs"; do
        { read -r be_t <"$be_f"; } 2>/dev/null && return 1
    done
    return 0
}
# nap I: the I-th pause of a wait: a hundredth of a second for the first
# twenty, then a tenth.
nap() { if [ "$1" -lt 20 ]; then sleep 0.01; else sleep 0.1; fi 2>/dev/null; }

# kill_rounds DIR: DIR's processes ended by their PIDs, where no freezer
# holds them still; 1 if some are still there after kb_idle rounds (40:
# some two seconds) with nothing new to signal.  Each live thread DIR
# lists (tasks, cgroup.threads) names its process by its Tgid, a leader
# that has ended (Z) with live threads included, which is signalled
# while that thread is still there: the leader's PID stays its own until
# the last thread has ended.  (Not the thread's own ID, though a signal
# to it would reach the group as well: a thread that ends is released at
# once, exit_notify in kernel/exit.c, and its ID free for anyone.)  Just
# before each signal the shell itself (read and kill are builtins: no
# process is started between the look and the kill) reads the thread's
# /proc entry again: it is signalled only while it is still in DIR, live
# and of that process, and only once: a process signalled already is
# only waited for.  And only once the process's parent is outside DIR: a
# parent inside, still going, reaps its children whenever they end (a
# shell's sleep a look), and one could end and be reaped between the
# look and the kill, its PID free for anyone.  So the box is ended from
# the top, in rounds: each kills the processes whose parent is outside
# (its helper, or the init process that takes the orphans of the last
# round), which end only by that kill or at their own end.
kill_rounds() {
    # Its path from the mount point of its tree (the longest that holds it).
    kb_rel=$1
    for kb_m in $cg_all; do
        case $1 in "$kb_m"/*) kb_r=${1#"$kb_m"}; [ "${#kb_rel}" -le "${#kb_r}" ] || kb_rel=$kb_r ;; esac
    done
    threads_file "$1"
    kb_tf=$tf kb_max=$kb_idle kb_idle=0
    while [ $kb_idle -lt "$kb_max" ]; do
        kb_left='' kb_new='' kb_seen=' '
        while read -r kb_t; do
            { task_status "$kb_t" && [ "$ts_state" != Z ]; } || continue
            kb_g=$ts_tgid
            case $kb_seen in *" $kb_g "*) continue ;; esac
            kb_seen="$kb_seen$kb_g "
            kb_left=1
            case $kb_done in *" $kb_g "*) continue ;; esac
            ! in_cgroup "$ts_ppid" "$kb_rel" || continue
            if task_status "$kb_t" && [ "$ts_state" != Z ] && [ "$ts_tgid" = "$kb_g" ] && in_cgroup "$kb_t" "$kb_rel" &&
                kill -KILL "$kb_g" 2>/dev/null; then
                kb_done="$kb_done$kb_g " kb_new=1
            fi
        done 2>/dev/null <"$kb_tf"
        [ -n "$kb_left" ] || return 0
        if [ -n "$kb_new" ]; then kb_idle=0; else kb_idle=$((kb_idle + 1)); fi
        # (The orphans of this round are handed to their new parent.)
        nap "$kb_idle"
    done
    return 1
}
# task_status ID: from /proc/ID/status (ID a process's or a thread's), by
# the shell's own reads: its name (ts_name), state letter (ts_state) and
# word (ts_word: "sleeping", "zombie"), process (ts_tgid: the leader's ID)
# and parent process (ts_ppid); 1 if there is no such ID.
task_status() {
    ts_name='' ts_state='' ts_word='' ts_tgid='' ts_ppid=''
    digits "$1" || return 1
    { while IFS= read -r ts_l; do
        case $ts_l in
        Name:*) ts_name=${ts_l#Name:?} ;;
        State:*) ts_l=${ts_l#State:?} ts_state=${ts_l%% *} ts_word=${ts_l#*\(} ts_word=${ts_word%\)} ;;
        Tgid:*) ts_tgid=${ts_l#Tgid:?} ;;
        PPid:*) ts_ppid=${ts_l#PPid:?}; break ;;
        esac
    done <"/proc/$1/status"; } 2>/dev/null
    digits "$ts_tgid" && [ -n "$ts_state" ]
}
# in_cgroup PID PATH: PID is, now, in a cgroup at PATH (from its mount
# point) of one of its hierarchies: /proc/PID/cgroup read by the shell.
in_cgroup() {
    while IFS= read -r ic_l; do
        [ "${ic_l#*:*:}" != "$2" ] || return 0
    done 2>/dev/null <"/proc/$1/cgroup"
    return 1
}

# box_end DIR KILL: the box DIR (or a freezer cgroup of a box's name)
# removed, and then the freezer cgroup beside it: rmdir tried every tenth
# of a second for five, kill_box at the KILL-th (a process that has just
# exited keeps its cgroup busy a moment), and only five times more once
# kill_box has found that something in it will not end.  1, with what is
# left in it in be_why, if it is still there.
box_end() {
    cgroup_mounts
    freezer_of "$1"
    be_fz='' be_i=0 be_last=50
    [ "$kb_fz" = "$1" ] || be_fz=$kb_fz
    while [ -d "$1" ] && ! rmdir "$1" 2>/dev/null && [ $be_i -lt $be_last ]; do
        if [ "$be_i" -eq "$2" ] && ! kill_box "$1"; then be_last=$((be_i + 5)); fi
        sleep 0.1
        be_i=$((be_i + 1))
    done
    be_why=''
    if [ -d "$1" ]; then
        box_left "$1"
        be_why=${bl:-nothing is listed in it, and rmdir still fails}
        return 1
    fi
    # Its freezer cgroup holds nothing once the box is empty (the box's
    # wrapper joins it first).
    be_i=0
    while [ -n "$be_fz" ] && [ -d "$be_fz" ] && ! rmdir "$be_fz" 2>/dev/null && [ $be_i -lt 10 ]; do
        [ "$be_i" -ne 0 ] || kill_box "$be_fz"
        sleep 0.1
        be_i=$((be_i + 1))
    done
    [ -n "$be_fz" ] && [ -d "$be_fz" ] || return 0
    box_left "$be_fz"
    be_why="its freezer cgroup $be_fz is left: ${bl:-nothing is listed in it, and rmdir still fails}"
    return 1
}
# box_left DIR: what is still in DIR, into bl: each task's ID, name and
# state, a thread as the thread of its process, a leader that has ended
# (listed by cgroup.procs only) too, and a task held by a freezer as such
# (it shows as D, "disk sleep", in /proc).
box_left() {
    bl='' bl_seen=' '
    threads_file "$1"
    for bl_f in "$tf" "$1/cgroup.procs"; do
        while read -r bl_t; do
            case $bl_seen in *" $bl_t "*) continue ;; esac
            bl_seen="$bl_seen$bl_t "
            if ! task_status "$bl_t"; then
                bl="$bl${bl:+, }PID $bl_t (gone)"
                continue
            fi
            bl_w=$ts_word
            if [ -n "$cg_fz" ]; then
                while IFS= read -r bl_l; do
                    case $bl_l in
                    *:freezer:*) { read -r bl_s <"$cg_fz${bl_l#*:freezer:}/freezer.state"; } 2>/dev/null &&
                        [ "$bl_s" != THAWED ] && bl_w="$bl_w, held by the freezer cgroup $cg_fz${bl_l#*:freezer:} ($bl_s)" ;;
                    esac
                done 2>/dev/null <"/proc/$bl_t/cgroup"
            fi
            if [ "$ts_tgid" = "$bl_t" ]; then
                bl="$bl${bl:+, }PID $bl_t ($ts_name, $bl_w)"
            else
                bl="$bl${bl:+, }thread $bl_t of PID $ts_tgid ($ts_name, $bl_w)"
            fi
        done 2>/dev/null <"$bl_f"
    done
    [ -z "$bl" ] || bl="still in it: $bl"
}

# Is FILE on as swap?  /proc/swaps names it exactly, with its spaces as
# \040: compared as a string, never as a pattern.
swap_listed() {
    awk -v f="$(printf '%s' "$1" | sed 's/ /\\040/g')" 'NR > 1 && $1 == f { found = 1 } END { exit !found }' /proc/swaps
}

# swapfile_off FILE: off if on ($sf_was_on 1), then deleted.  2 if swapoff
# failed (its pages found no room elsewhere): it is kept, for deleted it
# would stay swap, with no name to turn it off by, until the next boot.
swapfile_off() {
    sf_was_on=''
    if swap_listed "$1"; then
        swapoff "$1" || return 2
        sf_was_on=1
    fi
    rm -f "$1"
}

# (A line below /proc/swaps' header: read by the shell.)
swap_is_on() { { read -r _ && read -r _; } 2>/dev/null </proc/swaps; }

# A zombie (killed, not yet reaped by its parent or PID 1) cleans nothing up:
# it counts as gone.
owner_alive() {
    proc_stat "${1%%.*}" && [ "$stat_state" != Z ] && [ "$stat_start" = "${1#*.}" ]
}

# unit_of TAG: the systemd scope of a box of TAG's (PID.START[.N]):
# swap-box-PID-START[-N].scope.
unit_of() {
    unit_r=$1 unit_n=swap-box
    while :; do
        case $unit_r in
        *.*) unit_n=$unit_n-${unit_r%%.*} unit_r=${unit_r#*.} ;;
        *) break ;;
        esac
    done
    printf '%s\n' "$unit_n-$unit_r.scope"
}

# tag_in NAME: the owner tag in a name of ours (swap-KIND.PID.START, KIND
# in a-z, with anything after a further dot; or the unit
# swap-box-PID-START[-N].scope) into tag_found, which is empty for any
# other name.  By the shell's own expansions: the sweep does this for
# every name it meets.  tag_of NAME prints it.
tag_in() {
    tag_found='' tag_n=${1##*/}
    case $tag_n in
    swap-box-*.scope)
        tag_r=${tag_n#swap-box-} && tag_r=${tag_r%.scope}
        tag_p=${tag_r%%-*}
        [ "$tag_p" != "$tag_r" ] || return 0
        tag_r=${tag_r#*-} && tag_s=${tag_r%%-*}
        tag_r=${tag_r#"$tag_s"}
        [ -z "$tag_r" ] || digits "${tag_r#-}" || return 0 ;;
    swap-*.*)
        tag_r=${tag_n#swap-}
        case ${tag_r%%.*} in *[!a-z]*) return 0 ;; esac
        tag_r=${tag_r#*.} && tag_p=${tag_r%%.*}
        [ "$tag_p" != "$tag_r" ] || return 0
        tag_r=${tag_r#*.} && tag_s=${tag_r%%.*} ;;
    *) return 0 ;;
    esac
    ! digits "$tag_p" || ! digits "$tag_s" || tag_found=$tag_p.$tag_s
}
tag_of() { tag_in "$1"; [ -z "$tag_found" ] || printf '%s\n' "$tag_found"; }
digits() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }


# remember NAME VALUE: the record of a setting about to change, and what
# it was, written before the change (exclusively: nothing at the name gets
# past it), as swap-$record_as.TAG.NAME in this user's state folder, for
# the cleanup and, should this run be killed before it can put it back,
# for the guard or the next sweep (scripts/undo: NAME's kind says what it
# may hold and how it is put back).  forget NAME: it is back.
record_as=${record_as:-box}
remember() {
    echo "$2" | new_file "$state_dir/swap-$record_as.$tag.$1" && return 0
    say "cannot write the record $state_dir/swap-$record_as.$tag.$1, so $1 is not changed"
    return 1
}
forget() { rm -f "$state_dir/swap-$record_as.$tag.$1"; }

# shellcheck source=scripts/report
. "$swap_scripts/report"
# shellcheck source=scripts/gate
. "$swap_scripts/gate"
# shellcheck source=scripts/undo
. "$swap_scripts/undo"
