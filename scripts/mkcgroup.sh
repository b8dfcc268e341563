#!/bin/sh
# mkcgroup.sh CONTROLLER NAME: make a cgroup NAME in which CONTROLLER (cpu,
# memory) can be set, for make bench (scripts/bench.sh) and the tests
# (tests/cli/mechanisms.bats): in the v1 hierarchy of that controller, or
# in the v2 one where its root delegates it, each found where it is mounted
# (/proc/self/mountinfo), not at its usual place only.  Prints "cgroup
# PATH" (v1) or "cgroup2 PATH"; nothing, and status 1, if none can be made
# (not root, no such hierarchy).  The caller removes it (rmdir).
[ $# = 2 ] || { echo "usage: $0 CONTROLLER NAME" >&2; exit 2; }
[ "$(id -u)" = 0 ] || exit 1
# mountinfo: ID PARENT DEV ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
awk -v c="$1" '{ for (i = 7; i <= NF && $i != "-"; i++) continue
                 if ($(i + 1) == "cgroup2" || ($(i + 1) == "cgroup" && $(i + 3) ~ "(^|,)" c "(,|$)"))
                     print $(i + 1), $5 }' /proc/self/mountinfo |
    while read -r type point; do
        if [ "$type" = cgroup ] || grep -qw "$1" "$point/cgroup.subtree_control" 2> /dev/null; then
            mkdir "$point/$2" 2> /dev/null && echo "$type $point/$2" && exit 0
        fi
    done | grep .
