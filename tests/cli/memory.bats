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

@test "checking a 1,000,000-line list takes no more memory than a 1,000-line one" {
    require_rss
    local few many
    printf abc > f
    h=$("$GNU_MD5SUM" < f | cut -c1-32)
    awk -v h="$h" 'BEGIN { for (i = 0; i < 1000000; i++) print h "  f" }' > list
    head -n 1000 list > short
    # The million lines' 40 MB must not be held, nor anything a line.  4
    # MiB: two huge pages more.
    few=$(peak_kib "$MD5SUM" -c --quiet short)
    many=$(peak_kib "$MD5SUM" -c --quiet list)
    echo "peak RSS: $few KiB for 1,000 lines, $many KiB for 1,000,000"
    [ "$many" -le $((few + 4 * 1024)) ]
}

@test "the chunk buffers in huge pages, past the first few a run of two small inputs touches" {
    require_rss
    grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
        skip "transparent huge pages are off here"
    head -c 65536 /dev/urandom > a
    head -c 65536 /dev/urandom > b
    for i in $(seq 1 200); do head -c 262144 /dev/urandom > "f$i"; done
    # Two inputs in lanes (-j1: in this thread, neither taken back), each
    # too large for a small buffer: the pages of the chunk buffers they
    # touch stay small, no 2 MiB page is cleared for them.
    run "$MD5SUM" -j1 a b
    [ "$status" -eq 0 ]
    [ "$output" = "$("$GNU_MD5SUM" a b)" ]
    one=$(peak_kib "$MD5SUM" a)
    two=$(peak_kib "$MD5SUM" -j1 a b)
    echo "peak RSS: one input $one KiB, two in lanes $two KiB"
    [ $((two - one)) -lt 1024 ]
    # 200 inputs of 256 KiB fill 48 lanes' buffers, 6 MiB: in 4 KiB pages
    # that is 1,600 first touches (each about 10 us in a VM), in huge pages
    # a few, past the first 64 small ones.  The run's faults, here: 180;
    # with the first 2 MiB small, 630; no huge pages, 1,700.
    run "$MD5SUM" -j1 f*
    [ "$status" -eq 0 ]
    [ "$output" = "$("$GNU_MD5SUM" f*)" ]
    /usr/bin/time -f %R -o faults.txt "$MD5SUM" -j1 f* > /dev/null
    echo "page faults: $(cat faults.txt)"
    [ "$(cat faults.txt)" -lt 400 ]
}

@test "a run of small files keeps to a few MiB: each is read into a page of its lane's, not into a chunk buffer" {
    require_rss
    grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
        skip "transparent huge pages are off here: a chunk buffer's first page would cost a page"
    local i sizes one many j1
    # Sizes about the padding's edges and a page's, 600 files.
    sizes=(0 1 55 56 63 64 65 119 120 128 1000 4031 4032 4095 4096)
    for i in $(seq 0 599); do
        head -c "${sizes[i % ${#sizes[@]}]}" /dev/urandom > "$(printf 's%04d' "$i")"
    done
    run "$MD5SUM" s*
    [ "$status" -eq 0 ]
    [ "$output" = "$("$GNU_MD5SUM" s*)" ]
    "$GNU_MD5SUM" s* > sums
    run "$MD5SUM" -j1 -c --quiet sums
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    # Read into chunk buffers, each lane's first page of its own 132 KiB
    # would keep the huge pages they lie in: 16 MiB on 2 CPUs, 8 with -j1.
    # Allowed: 4 MiB, and 96 KiB a CPU for each hasher's thread and tasks.
    one=$(peak_kib "$MD5SUM" s0001)
    many=$(peak_kib "$MD5SUM" s*)
    j1=$(peak_kib "$MD5SUM" -j1 -c --quiet sums)
    echo "peak RSS: one input $one KiB, 600 $many KiB, -j1 -c $j1 KiB"
    [ "$many" -lt $((one + 4 * 1024 + 96 * $(nproc))) ]
    [ "$j1" -lt $((one + 4 * 1024)) ]
}
