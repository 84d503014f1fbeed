# SPDX-License-Identifier: MIT
#
# lib.sh: what every script of the lab needs, in one place: owner tags and
# start times, this user's own folders and files made safely, the /proc and
# cgroup readers, and the records a run writes before it changes the
# machine.  Sourced, never run: by scripts/box, which the lab's flows
# (scripts/lab, cache-vs-anon, backends) and the tests source in turn,
# with box_library=1 and box_self set to its path (box finds this folder
# from it: swap_scripts).  It loads the rooms the flows share with box:
#   scripts/report  how a line of swap's report is read (report_line);
#   scripts/gate    what root runs for somebody, and with whose rights;
#   scripts/undo    the records' kinds, the sweep, and the guard.
# shellcheck shell=sh disable=SC2034,SC2154 # (its names are shared with the scripts that source it)
[ -z "${swap_lib_loaded-}" ] || return 0
swap_lib_loaded=1

me=box
say() { printf '%s: %s\n' "$me" "$*" >&2; }

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
# start_time PID: field 22 of /proc/PID/stat; nothing if there is no PID.
start_time() { proc_stat "$1" && printf '%s\n' "$stat_start"; }
# This shell's tag (the lab's, when it sources this file).
tag=$$.$(start_time $$)
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

# cgroup_mounts: the mount points of the cgroup v2 tree (cg_v2) and of the
# v1 tree that carries the memory controller (cg_v1), either empty, of
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
        if ($5 == "/sys/fs/cgroup") top = $(i + 1)
        if ($(i + 1) ~ /^cgroup2?$/ && !seen[$5]++) all = all " " $5
    } END { print v1; print v2; print top; print all; print self1; print self2; print "." }' /proc/self/mountinfo /proc/self/cgroup) || return 1
    cg_v1=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_v2=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_top=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_all=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_self_v1=${cg_m%%"$nl"*} cg_m=${cg_m#*"$nl"}
    cg_self_v2=${cg_m%%"$nl"*} cg_looked=1
}
cg_looked=''

# has_word FILE WORD: FILE's first line (a cgroup's list of controllers)
# holds WORD, read by the shell itself.
has_word() {
    { read -r hw_line <"$1"; } 2>/dev/null || return 1
    case " $hw_line " in *" $2 "*) return 0 ;; esac
    return 1
}

# kill_box DIR: every process in the cgroup DIR ended, through the cgroup
# itself (cgroup.kill, v2 since Linux 5.14), or else each PID it lists: a
# box only root made holds only what root put there, and a PID is read
# from it, never remembered from before.  Just before each signal the
# shell itself (read and kill are builtins: no process is started between
# the look and the kill) reads the PID's /proc/PID/cgroup again, and it is
# signalled only while it is still in DIR and has not ended (a zombie,
# which its parent may reap at any moment, freeing its PID, is passed
# over).  And only once its parent is outside DIR: a parent inside, still
# going, reaps its children whenever they end (a shell's sleep a look),
# and one could end and be reaped between the look and the kill, its PID
# free for anyone.  So the box is ended from the top, in rounds: each
# kills the processes whose parent is outside (its helper, or the init
# process that takes the orphans of the last round), which end only by
# that kill or at their own end.
kill_box() {
    if [ -f "$1/cgroup.kill" ]; then
        echo 1 2>/dev/null >"$1/cgroup.kill"
        return
    fi
    # Its path from the mount point of its tree (the longest that holds it).
    cgroup_mounts
    kb_rel=$1
    for kb_m in $cg_all; do
        case $1 in "$kb_m"/*) kb_r=${1#"$kb_m"}; [ "${#kb_rel}" -le "${#kb_r}" ] || kb_rel=$kb_r ;; esac
    done
    kb_round=0
    while [ $kb_round -lt 500 ]; do
        kb_left=''
        while read -r kb_pid; do
            case $kb_pid in ''|*[!0-9]*) continue ;; esac
            { proc_stat "$kb_pid" && [ "$stat_state" != Z ]; } || continue
            kb_left=1
            ! in_cgroup "$stat_ppid" "$kb_rel" || continue
            proc_stat "$kb_pid" && [ "$stat_state" != Z ] && in_cgroup "$kb_pid" "$kb_rel" &&
                kill -KILL "$kb_pid" 2>/dev/null
        done 2>/dev/null <"$1/cgroup.procs"
        [ -n "$kb_left" ] || return 0
        kb_round=$((kb_round + 1))
        # (The orphans of this round are handed to their new parent.)
        sleep 0.01 2>/dev/null
    done
}
# in_cgroup PID PATH: PID is, now, in a cgroup at PATH (from its mount
# point) of one of its hierarchies: /proc/PID/cgroup read by the shell.
in_cgroup() {
    while IFS= read -r ic_l; do
        [ "${ic_l#*:*:}" != "$2" ] || return 0
    done 2>/dev/null <"/proc/$1/cgroup"
    return 1
}

# Is FILE on as swap?  /proc/swaps names it exactly, with its spaces as
# \040: compared as a string, never as a pattern.
swap_listed() {
    awk -v f="$(printf '%s' "$1" | sed 's/ /\\040/g')" 'NR > 1 && $1 == f { found = 1 } END { exit !found }' /proc/swaps
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
