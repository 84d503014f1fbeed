#!/bin/sh
# What root runs for the one who asked cannot reach root (scripts/gate,
# scripts/asker):
#  - a root script or program whose interpreter ("#!", or an ELF file's
#    PT_INTERP) is a student's file: refused, her file never run;
#  - under sudo, her program runs in a session of its own with no
#    terminal of root's, her HOME, USER, LOGNAME and groups, no TMPDIR of
#    root's, no_new_privs; SUDO_GID 0: refused;
#  - in a real terminal (tmux), her program pushes a command into root's
#    shell with TIOCSTI: the kernel refuses, nothing runs as root; a
#    Ctrl-C there still ends a held run, and nothing is left;
#  - root writes a file for the asker in a folder the student may change,
#    while she swaps every new name there for a link to the asker's
#    secret: the secret is untouched.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
begin "$@"
need_users victim
plan 20

# Her folder below root's, as /home/NAME is; the victim's, hers alone.
base=/var/lib/swap-canary.$tag
hd=$base/home vd=$base/victim
mkdir -m 755 "$base" "$hd" "$vd" && chown "$student:$student" "$hd" && chown "$victim:$victim" "$vd" && chmod 700 "$vd"
# shellcheck disable=SC2016 # the canary's own $0
printf '#!/bin/sh\nid -u >>"%s/ran-as"\n' "$hd" | as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/canary"
mkdir -m 755 "$tmp/root"
chmod 755 "$tmp"
gid=$(id -g "$student")
# gated PROG ARGS: PROG through the gate and run as the gate says, as the
# flows do, with no box: stdout in $out, stderr in $err, status in $rc;
# $between run between the two.  (A run that hangs ends in 60 s, 124.)
# shellcheck disable=SC2034 # read by that sh, through its eval
between=''
# shellcheck disable=SC2016 # expanded by that sh
gated() {
    run timeout 60 sh -c 'box_library=1 box_self=$1; . "$1"; shift
        gate "$1" || { echo "refused: $gate_why" >&2; exit 126; }
        eval "${between-}"
        shift; $gated_as "$gated" "$@"' sh "$box" "$@"
}
# shellcheck disable=SC2317 # called by ok
unrun() {
    [ "$rc" -eq 126 ] && [ ! -e "$hd/ran-as" ] && grep -q "$1" "$err" && return 0
    echo "ran as: $(cat "$hd/ran-as" 2>/dev/null)" >&2
    return 1
}

# 1-5. Interpreters, as root alone (a teacher's sudo make check too).
sudo_was_uid=${SUDO_UID-} sudo_was_gid=${SUDO_GID-}
unset SUDO_UID SUDO_GID
printf '#!%s\n' "$hd/canary" >"$tmp/root/hers" && printf '#!%s -x\n' "$tmp/root/hers" >"$tmp/root/chain" &&
    printf '#! \t/bin/sh -e\necho fine\n' >"$tmp/root/fine" && chmod 755 "$tmp/root/hers" "$tmp/root/chain" "$tmp/root/fine"
gated "$tmp/root/hers"
ok "a root script whose #! names her file: refused, her file not run" unrun "its interpreter $hd/canary: $hd, a folder on the way, belongs to UID $student_uid"
printf '#!%s' "$hd/canary" >"$tmp/root/bare" && chmod 755 "$tmp/root/bare"
gated "$tmp/root/bare"
ok "the same with no newline after the #! line: refused, her file not run" unrun "its interpreter $hd/canary: "
gated "$tmp/root/chain"
ok "a root script whose #! names that script: refused, both named" unrun "its interpreter $tmp/root/hers, whose interpreter is $hd/canary: "
cc=$(command -v cc || command -v gcc || command -v clang)
if [ -z "$cc" ]; then
    skip "a root program whose ELF interpreter is her file" "no C compiler"
elif ! "$cc" -o "$tmp/root/elf" -Wl,--dynamic-linker="$hd/canary" "$top/tests/tiocsti.c" 2>"$tmp/cc.err"; then
    fail "a root program whose ELF interpreter is her file" "cannot build it: $(cat "$tmp/cc.err")"
else
    gated "$tmp/root/elf" x
    ok "a root program whose ELF interpreter (PT_INTERP) is her file: refused, her file not run" unrun "its interpreter $hd/canary: "
fi
gated "$tmp/root/fine"
ok "a root script with #! and blanks before /bin/sh: runs" [ "$rc:$(cat "$out")" = "0:fine" ]

[ -z "$sudo_was_uid" ] || export SUDO_UID="$sudo_was_uid" SUDO_GID="$sudo_was_gid"
# 5-6. Under sudo: her program's session, rights and environment, read by
# itself (fields 6 and 7 of /proc/self/stat: session, terminal).
# shellcheck disable=SC2016 # the script's own
printf '%s\n' '#!/bin/sh' 'read -r s </proc/$$/stat; set -- ${s##*) }' \
    'echo "pid=$$ sid=$4 tty=$5 home=${HOME-} user=${USER-} logname=${LOGNAME-} tmpdir=${TMPDIR-none}"' \
    'grep -E "^(Gid|Groups|NoNewPrivs):" /proc/self/status | tr -s "\t " "  "' |
    as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/env"
HOME=/root SUDO_UID=$student_uid SUDO_GID=$gid gated "$hd/env"
# shellcheck disable=SC2317 # called by ok
her_own() {
    read -r pid sid tty home user logname tmpdir <"$out" || return 1
    [ "$rc" -eq 0 ] && [ "$pid" = "pid=${sid#sid=}" ] && [ "$tty" = tty=0 ] && [ "$home" = "home=$(getent passwd "$student" | cut -d: -f6)" ] &&
        [ "$user $logname $tmpdir" = "user=$student logname=$student tmpdir=none" ] && has "$out" "^Gid: $gid $gid " &&
        has "$out" "^Groups: $gid ?$" && has "$out" '^NoNewPrivs: 1' && return 0
    cat "$out" >&2
    return 1
}
ok "under sudo her program runs in a session of its own, no terminal, her HOME, USER, LOGNAME, groups, no TMPDIR, no_new_privs" her_own
as_student rm -f "$hd/ran-as"
SUDO_UID=$student_uid SUDO_GID=0 gated "$hd/canary"
ok "SUDO_GID 0 with her SUDO_UID: refused, nothing run" unrun "SUDO_GID 0 is not a group of UID $student_uid's"
# Under sudo root opens nothing at her names: her program, checked, then
# swapped for her link to a FIFO in a folder of root's.  Her own process
# opens it, and cannot; root, opening it, would wait for a writer.
mkdir -m 700 "$tmp/rootonly" && mkfifo -m 600 "$tmp/rootonly/fifo"
as_student cp "$hd/canary" "$hd/swapped"
between="runuser -u $student -- ln -sfn $tmp/rootonly/fifo $hd/swapped" SUDO_UID=$student_uid SUDO_GID=$gid gated "$hd/swapped"
ok "her program swapped after the check for her link to root's FIFO: refused by her own process's open, nothing run" \
    unrun "^refused: $hd/swapped cannot be opened by UID $student_uid\$"

# 7-11. In a real terminal: root's shell in tmux, the flows run from it.
# shellcheck disable=SC2016 # expanded by that sh
"$cc" -o "$tmp/tiocsti" "$top/tests/tiocsti.c" 2>/dev/null &&
    as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/tiocsti" <"$tmp/tiocsti"
# shellcheck disable=SC2016 # the script's own
# (Held on a FIFO of hers that the test keeps open, and nobody writes.)
printf '%s\n' '#!/bin/sh' 'echo $$ >"$1"' "read -r line <$hd/hold.fifo" 'echo "read: $line"' | as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/hold"
as_student mkfifo -m 666 "$hd/hold.fifo" && exec 7<>"$hd/hold.fifo"
# (Root's shell, with root's environment.)
term_why="no C compiler for tests/tiocsti.c"
[ ! -x "$hd/tiocsti" ] || ! term_start 200 40 "env -u TMUX PS1='$ ' sh" || term_why=''
sudo_env="SUDO_UID=$student_uid SUDO_GID=$gid"
boxes_before=$(boxes | wc -l)
box_why=$(sh "$box" how 2>&1) && box_why=''
box_why=${box_why#none: }
if [ -n "$term_why" ]; then
    for d in "her program pushes a line into root's terminal: the kernel refuses it (lab demo, plain)" \
        "her program pushes a line into root's terminal (box run)" "nothing she pushed ran in root's shell" \
        "Ctrl-C at root's terminal ends her held run (lab demo, plain): exit 130, her program gone" \
        "Ctrl-C at root's terminal ends her held run in a box: exit 130, her program and its box gone"; do
        skip "$d" "$term_why"
    done
else
    # TIOCSTI pushes into one's own controlling terminal only, and with
    # dev.tty.legacy_tiocsti=0 (6.2 and later) not at all without
    # CAP_SYS_ADMIN: there, whatever the flows do, nothing can be pushed.
    legacy=$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1)
    if [ "$legacy" = 0 ]; then
        for d in "her program pushes a line into root's terminal: the kernel refuses it (lab demo, plain)" \
            "her program pushes a line into root's terminal (box run)" "nothing she pushed ran in root's shell"; do
            skip "$d" "dev.tty.legacy_tiocsti is 0: TIOCSTI is refused to everyone here"
        done
    else
        type_line "cd $tmp; $sudo_env sh $lab demo $hd/tiocsti 'touch $tmp/pwned' >$tmp/demo.out 2>&1; echo DEMO-DONE"
        wait_for screen_has '^DEMO-DONE' || diag "no DEMO-DONE on root's terminal: $(cat "$tmp/screen")"
        ok "her program pushes a line into root's terminal: the kernel refuses it (lab demo, plain)" \
            line_is 2 '^tiocsti: (Operation not permitted|Inappropriate ioctl for device)$' "$tmp/demo.out"
        if [ -z "$box_why" ]; then
            type_line "$sudo_env BOX_GUARD=0 sh $box run 16M $hd/tiocsti 'touch $tmp/pwned' >$tmp/box.out 2>&1; echo BOX-DONE"
            wait_for screen_has '^BOX-DONE' || diag "no BOX-DONE on root's terminal: $(cat "$tmp/screen")"
            ok "her program pushes a line into root's terminal (box run): the kernel refuses it" \
                has "$tmp/box.out" '^tiocsti: (Operation not permitted|Inappropriate ioctl for device)$'
        else
            box_skip "her program pushes a line into root's terminal (box run)" "$box_why"
        fi
        # Whatever was pushed comes before this line in the terminal's input.
        type_line "touch $tmp/after"
        wait_for test -e "$tmp/after"
        # shellcheck disable=SC2317 # called by ok
        unpushed() { [ -e "$tmp/after" ] && [ ! -e "$tmp/pwned" ] && return 0; cat "$tmp/screen" >&2; return 1; }
        ok "nothing she pushed ran in root's shell" unpushed
    fi
    # Her program with no descriptor of root's terminal: it cannot change
    # its settings (here the kill character, which would make each space
    # typed there erase the line so far).
    # shellcheck disable=SC2016 # the script's own
    printf '%s\n' '#!/bin/sh' 'for f in 0 1 2; do [ ! -t $f ] || echo "fd $f: a terminal"; done' \
        "stty kill ' ' 2>/dev/null && echo 'stty: changed'" 'echo done' | as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/tty"
    type_line "stty -g >$tmp/stty.before; $sudo_env sh $lab demo $hd/tty >$tmp/tty.out 2>&1; stty -g >$tmp/stty.after; echo TTY-DONE"
    wait_for screen_has '^TTY-DONE' || diag "no TTY-DONE on root's terminal: $(cat "$tmp/screen")"
    # shellcheck disable=SC2317 # called by ok
    untouched() {
        has "$tmp/tty.out" '^done$' && ! has "$tmp/tty.out" 'terminal|changed' && [ -s "$tmp/stty.before" ] &&
            cmp -s "$tmp/stty.before" "$tmp/stty.after" && return 0
        cat "$tmp/tty.out" "$tmp/stty.before" "$tmp/stty.after" >&2
        return 1
    }
    ok "her program gets no descriptor of root's terminal: its settings as they were (lab demo, plain)" untouched
    # A line typed at root's terminal still reaches her run (as Enter goes
    # on from swap --pause), and nothing of root's reads it after the run:
    # the next line typed is root's shell's again.  (Boxed, the demo runs
    # it again: that run finds the first's mark and ends.)
    # shellcheck disable=SC2016 # the script's own
    printf '%s\n' '#!/bin/sh' "[ ! -e $hd/line.done ] || exit 0" 'echo ready' 'read -r l' 'echo "got: $l"' ": >$hd/line.done" |
        as_student sh -c 'cat >"$1" && chmod 755 "$1"' sh "$hd/line"
    type_line "$sudo_env sh $lab demo $hd/line >$tmp/line.out 2>&1; echo LINE-DONE"
    wait_for has "$tmp/line.out" '^ready$' && type_line "typed at root's terminal"
    wait_for screen_has '^LINE-DONE' || diag "no LINE-DONE on root's terminal: $(cat "$tmp/screen")"
    type_line "touch $tmp/after-line"
    # shellcheck disable=SC2317 # called by ok
    fed() {
        has "$tmp/line.out" "^got: typed at root's terminal\$" && wait_for test -e "$tmp/after-line" && return 0
        cat "$tmp/line.out" "$tmp/screen" >&2
        return 1
    }
    ok "a line typed at root's terminal reaches her run, and root's shell reads the next (lab demo)" fed
    # held NAME FLOW...: her hold program run by FLOW from root's shell,
    # held on its FIFO until a Ctrl-C is typed there.
    # shellcheck disable=SC2317 # called below
    held() {
        hn=$1
        shift
        rm -f "$hd/pid"
        type_line "$sudo_env BOX_GUARD=0 $* $hd/hold $hd/pid; echo $hn-DONE-\$?"
        wait_for test -s "$hd/pid" || { diag "her program did not start: $(cat "$tmp/screen")"; return 1; }
        hp=$(cat "$hd/pid")
        tmux -S "$sock" send-keys C-c
        wait_for screen_has "$hn-DONE-[0-9]" || { diag "the flow did not end: $(cat "$tmp/screen")"; return 1; }
        wait_for dead "$hp"
    }
    # shellcheck disable=SC2317 # called by ok
    ended() {
        screen_has "$hn-DONE-130\$" && dead "$hp" && [ "$(boxes | wc -l)" -eq "$boxes_before" ] && return 0
        echo "her program: PID $hp, state $(state_of "$hp"); boxes: $(boxes)" >&2
        cat "$tmp/screen" >&2
        return 1
    }
    held PLAINHELD sh "$lab" demo
    ok "Ctrl-C at root's terminal ends her held run (lab demo, plain): exit 130, her program gone" ended
    if [ -z "$box_why" ]; then
        held BOXHELD sh "$box" run 16M
        ok "Ctrl-C at root's terminal ends her held run in a box: exit 130, her program and its box gone" ended
    else
        box_skip "Ctrl-C at root's terminal ends her held run in a box" "$box_why"
    fi
fi

# What of hers a flow prints itself (a class run's stderr, a failed run's
# last lines) goes through printable: no escape, no C1 control in UTF-8,
# her text and UTF-8 letters kept; a C1 inside another, gone too.
# shellcheck disable=SC2016 # expanded by that sh
got=$(printf 'a\033]0;T\007b\302\233[6nc\tok \303\251 x\302\302\233\233y\n' | sh -c 'box_library=1 box_self=$1; . "$1"; printable' sh "$box" | od -An -c | tr -d '\n' | tr -s ' ')
is "her text as a flow prints it: control characters gone, the rest kept" "$got" = " a ] 0 ; T b [ 6 n c \t o k 303 251 x y \n"

# A refusal that names her folder, named with an escape sequence: said
# printable (root alone: her folder is refused).
esc=$(printf 'E\033]0;T\007')
as_student mkdir "$hd/$esc" && as_student cp "$hd/canary" "$hd/$esc/x"
( unset SUDO_UID SUDO_GID && run sh "$box" run 16M "$hd/$esc/x" && cat "$err" >"$tmp/esc.err" )
# shellcheck disable=SC2016 # expanded by that sh
ok "a refusal naming her folder, an escape sequence in its name: said without it" \
    sh -c '[ -s "$1" ] && grep -q "refusing to run" "$1" && ! LC_ALL=C grep -q "$(printf "\033")" "$1"' sh "$tmp/esc.err"

# 12-13. Root writes for the victim (her sudo) in the student's folder,
# which anyone may write, while the student swaps every new name there
# for a link to the victim's secret (a perl loop, as fast as she can).
sd=$hd/open
as_student mkdir -m 777 "$sd"
# shellcheck disable=SC2016 # expanded by that sh
echo SECRET | as_victim sh -c 'umask 077 && cat >"$1"' sh "$vd/secret"
# shellcheck disable=SC2016 # perl's own variables
as_student perl -e 'my ($d, $to) = @ARGV;
    until (-e "$d/stop") {
        opendir(my $h, $d) or die "$d: $!\n";
        for (readdir $h) { next unless /^\.swap-out\./ && !-l "$d/$_"; symlink($to, "$d/.l") and rename("$d/.l", "$d/$_") }
        closedir $h;
    }' "$sd" "$vd/secret" &
racer=$!
# shellcheck disable=SC2016 # expanded by that sh
replaced=$(SUDO_UID=$victim_uid SUDO_GID=$(id -g "$victim") sh -c 'box_library=1 box_self=$1; . "$1"
    gate /bin/true && write_ok "$2/fig.svg" || exit 126
    i=0 r=0
    while [ $i -lt 20 ]; do echo "figure $i" | write_for "$2/fig.svg" 2>/dev/null || r=$((r + 1)); i=$((i + 1)); done
    echo "$r"' sh "$box" "$sd")
as_student touch "$sd/stop"
reap "$racer"
ok "20 writes for the victim in her folder, every new name swapped for a link to the victim's secret ($replaced caught): the secret untouched" \
    [ "$(cat "$vd/secret"):$(stat -c %a "$vd/secret")" = SECRET:600 ]
# shellcheck disable=SC2317 # called by ok
hers_or_none() {
    [ ! -e "$sd/fig.svg" ] && return 0
    [ -f "$sd/fig.svg" ] && [ ! -L "$sd/fig.svg" ] && [ "$(stat -c %u "$sd/fig.svg")" = "$victim_uid" ] &&
        has "$sd/fig.svg" '^figure [0-9]+$' && return 0
    ls -l "$sd/fig.svg" >&2
    return 1
}
ok "what stands at OUT after them is the victim's own figure, or nothing" hers_or_none
# Her link in the path of OUT's folder, to the victim's: refused before
# anything is written, nothing in the victim's folder.
as_student ln -s "$vd" "$hd/tovic"
# shellcheck disable=SC2016 # expanded by that sh
SUDO_UID=$victim_uid SUDO_GID=$(id -g "$victim") run sh -c 'box_library=1 box_self=$1; . "$1"
    gate /bin/true && echo x | write_for "$2"' sh "$box" "$hd/tovic/fig.svg"
# shellcheck disable=SC2317 # called by ok
not_through() { failed_saying 1 "refusing to write $hd/tovic/fig.svg for UID $victim_uid: $hd/tovic is a symbolic link of UID $student_uid" && [ ! -e "$vd/fig.svg" ]; }
ok "OUT's folder through her link to the victim's folder: refused, nothing written there" not_through
done_testing
