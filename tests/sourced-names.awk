# SPDX-License-Identifier: MIT
# awk -v target=FILE -f tests/sourced-names.awk LIB... FILE: what
# shellcheck takes from the libraries FILE sources (LIB..., all of them,
# the ones they source too) when it follows them (-x) and reports only on
# FILE, written as a short script of its own for shellcheck to follow
# instead (tests/10-static.t): each function FILE names, empty, or
# ending in exit if it never returns (so that what follows a call of
# done_testing is still unreachable); each variable FILE names that the
# libraries set, set; each that they read, read.  Names FILE does not
# mention can change nothing shellcheck says of FILE's lines, and leaving
# them out is what makes it quick: shellcheck's time grows with the number
# of variables it follows, and tests/lib.sh's ~200 cost 0.4 s a test here.

# (Words in comments name nothing: each costs shellcheck a variable.)
/^[ \t]*#/ { next }

function add(kind, name) {
    if ((kind, name) in seen) return
    seen[kind, name] = 1
    order[++count] = kind SUBSEP name
}
# last_command BODY: its last command, without leading blanks or ";".
function last_command(body,    n, parts, i, c) {
    n = split(body, parts, ";")
    for (i = n; i >= 1; i--) {
        c = parts[i]; sub(/^[ \t]+/, "", c); sub(/[ \t]+$/, "", c)
        if (c != "") return c
    }
    return ""
}
# ends FN C: FN's last command is C; a list (&&, ||, a pipe) may return.
function ends(fn, c,    w) {
    sub(/^[ \t]+/, "", c)
    if (c ~ /&&|\|/) return
    if (c ~ /^exit([ \t]|$)/) { noreturn[fn] = 1; return }
    split(c, w, /[ \t]/)
    calls[fn] = w[1]
}

FILENAME != target {
    # A function: name() { ... } on one line, or from name() { to the
    # "}" at the same indent.
    if (fn != "") {
        # (A line that goes on from the one before is part of a list.)
        if ($0 == fn_indent "}") { ends(fn, continued ? "&&" : last); fn = "" }
        else if ($0 !~ /^[ \t]*(#.*)?$/) { continued = last ~ /(&&|\||\\)[ \t]*$/; last = $0 }
    } else if (match($0, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*\(\) \{/)) {
        head = substr($0, RSTART, RLENGTH); name = head
        sub(/^[ \t]*/, "", name); sub(/\(\) \{$/, "", name)
        rest = substr($0, RSTART + RLENGTH)
        if (rest ~ /^[ \t]*$/) {
            fn = name; fn_indent = head; sub(/[^ \t].*/, "", fn_indent); last = ""; continued = 0
        } else if (rest ~ /\}[ \t]*$/) {
            sub(/\}[ \t]*$/, "", rest)
            ends(name, last_command(rest))
        }
    }
    s = $0
    while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(\)/)) {
        add("f", substr(s, RSTART, RLENGTH - 2)); s = substr(s, RSTART + RLENGTH)
    }
    s = $0
    while (match(s, /[A-Za-z_][A-Za-z0-9_]*=/)) {
        if (RSTART == 1 || substr(s, RSTART - 1, 1) !~ /[A-Za-z0-9_$]/)
            add("v", substr(s, RSTART, RLENGTH - 1))
        s = substr(s, RSTART + RLENGTH)
    }
    s = $0
    while (match(s, /(read|for)( -[A-Za-z]+)*( [A-Za-z_][A-Za-z0-9_]*)+/)) {
        n = split(substr(s, RSTART, RLENGTH), w, " ")
        for (i = 2; i <= n; i++) if (w[i] !~ /^-/ && w[i] != "in") add("v", w[i])
        s = substr(s, RSTART + RLENGTH)
    }
    s = $0
    while (match(s, /\$\{?[A-Za-z_][A-Za-z0-9_]*/)) {
        name = substr(s, RSTART, RLENGTH); sub(/^\$\{?/, "", name)
        add("r", name)
        s = substr(s, RSTART + RLENGTH)
    }
    next
}
{
    s = $0
    while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
        named[substr(s, RSTART, RLENGTH)] = 1; s = substr(s, RSTART + RLENGTH)
    }
}
END {
    # A function whose last command is one that never returns, never does.
    do {
        more = 0
        for (f in calls) if (!(f in noreturn) && calls[f] in noreturn) { noreturn[f] = 1; more = 1 }
    } while (more)
    print "# shellcheck shell=sh"
    print "# What " target " takes from the files it sources (tests/sourced-names.awk)."
    for (i = 1; i <= count; i++) {
        split(order[i], kn, SUBSEP)
        if (!(kn[2] in named)) continue
        if (kn[1] == "f") print kn[2] "() { " (kn[2] in noreturn ? "exit" : ":") "; }"
        else if (kn[1] == "v") print kn[2] "=''"
        else print ": \"${" kn[2] "-}\""
    }
}
