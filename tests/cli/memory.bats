#!/usr/bin/env bats
# Memory stays bounded whatever the input: peak RSS of one run, measured by
# GNU time(1).  Under qemu the figure would be qemu's, so those runs skip.
load '../helpers'

require_rss() {
    command -v /usr/bin/time >/dev/null || skip "GNU time(1) is not installed (apt-get install time)"
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under qemu the RSS would be qemu's"
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers add their own memory"
}

peak_kib() { # COMMAND...: peak RSS in KiB of COMMAND, output discarded
    /usr/bin/time -f %M -o rss.txt "$@" > /dev/null
    cat rss.txt
}

@test "hashing 160 MiB of 2 MiB files stays under 80 MiB" {
    require_rss
    head -c 2097152 /dev/urandom > f0
    for i in $(seq 1 79); do cp f0 "f$i"; done
    kib=$(peak_kib "$MD5SUM" f*)
    echo "peak RSS: $kib KiB"
    [ "$kib" -lt $((80 * 1024)) ]
}

@test "a 1 GiB sparse file is hashed in a few MiB (its chunk buffers only)" {
    require_rss
    truncate -s 1073741824 big
    kib=$(peak_kib "$MD5SUM" big)
    echo "peak RSS: $kib KiB"
    [ "$kib" -lt $((16 * 1024)) ]
}

@test "checking a 1,000,000-line list stays under 16 MiB" {
    require_rss
    printf abc > f
    h=$("$GNU_MD5SUM" < f | cut -c1-32)
    awk -v h="$h" 'BEGIN { for (i = 0; i < 1000000; i++) print h "  f" }' > list
    kib=$(peak_kib "$MD5SUM" -c --quiet list)
    echo "peak RSS: $kib KiB"
    [ "$kib" -lt $((16 * 1024)) ]
}
