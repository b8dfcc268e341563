/* flowtest: the flow (src/flow.c) driven from one thread, the test playing the
 * caller (adding inputs, taking results), the reader (its reads, made up)
 * and one hasher: once a hasher's read finds the storage must be waited
 * for, the run is cold, and the storage must see one stream, as GNU
 * md5sum's: every input read by the reader, in input order, each front to
 * back, once; and the reader runs ahead as far as its buffers go, never
 * into those left to the hashers. */
#include <stdlib.h>
#include <string.h>

#include "../../src/flow.h"
#include "testlib.h"

#define N_IN 6
#define N_BUFS 24
#define RESERVE 4   /* buffers left to the hashers' own reads */

struct seen {
    size_t in;
    off_t off;
};

static off_t size_of(size_t i)
{
    return (off_t)(CHUNK * (i % 3 + 3) + (i % 2 ? CHUNK / 2 : 0));   /* 3 to 5.5 chunks */
}

/* A program of its own: md5test links hasher_tests.c, whose flow is
 * made up. */
int main(void)
{
    struct flow_sleeper hasher;
    struct seen seen[96];
    size_t n_seen = 0, taken[N_IN], n_taken = 0, in, i, head = 0;
    int fd, held = 0, most_held = 0, hasher_reads = 0, results = 0, rounds, bad = 0;
    off_t size, off;
    const char *name;

    memset(&hasher, 0, sizeof hasher);
    if (flow_init(N_BUFS, RESERVE, (size_t)1 << 20) != 0) {
        report(0, "flow: no memory for %d buffers", N_BUFS);
        return 1;
    }
    for (i = 0; i < N_IN; i++)   /* descriptors the flow only hands on */
        bad += !flow_room() || !flow_add(100 + (int)i, size_of(i), NULL, &in) || in != i;
    /* The hasher takes the first input; its read would wait: cold. */
    flow_lock();
    bad += !flow_take_locked(&in, &fd, &size, &name, 0, &hasher) || in != 0;
    taken[n_taken++] = in;
    bad += flow_next_locked(0, &(struct chunk *){NULL}, &off, &(int){0}) != FLOW_READ;
    flow_read_locked(0, 0, 0, 0, 1);
    flow_unlock();
    for (rounds = 0; rounds < 1000 && results < N_IN; rounds++) {
        struct flow_read r;
        struct result res;

        /* The reader: as many reads as it may make now. */
        while (n_seen < sizeof seen / sizeof seen[0] && flow_reader_next(&r)) {
            seen[n_seen].in = r.in;
            seen[n_seen++].off = r.off;
            r.c->off = r.off;
            r.c->len = (size_t)(r.size - r.off < (off_t)CHUNK ? r.size - r.off : (off_t)CHUNK);
            r.c->final = r.off + (off_t)r.c->len == r.size;
            flow_reader_put(&r, 0, 0, r.first ? 0 : -1);   /* not in memory */
            most_held = ++held > most_held ? held : most_held;
        }
        /* The hasher, from the third round on (so that the reader runs
         * ahead as far as it may): each input's chunks, its end, and the
         * next inputs. */
        flow_lock();
        for (i = 0; i < n_taken && rounds > 1; i++) {
            struct chunk *c;
            int err;
            enum flow_next next;

            while ((next = flow_next_locked(taken[i], &c, &off, &err)) == FLOW_CHUNK) {
                int final = c->final;

                flow_unbuf_locked(c, 0);
                held--;
                if (final) {
                    memset(&res, 0, sizeof res);
                    res.hashed = (uintmax_t)size_of(taken[i]);
                    flow_done_locked(taken[i], &res);
                    break;
                }
            }
            hasher_reads += next == FLOW_READ;
        }
        while (n_taken < N_IN && flow_take_locked(&in, &fd, &size, &name, 0, &hasher))
            taken[n_taken++] = in;
        flow_unlock();
        /* The caller: results in order. */
        while (head < N_IN && flow_result(head, &res, &fd, &size) == 1) {
            bad += res.hashed != (uintmax_t)size_of(head);
            head++;
            results++;
        }
    }
    /* One stream: every input in order, each chunk once, front to back. */
    for (i = 0, in = 0, off = 0; i < n_seen; i++) {
        if (seen[i].in != in) {
            bad += off < size_of(in) || seen[i].in != in + 1 || seen[i].off != 0;
            in = seen[i].in;
            off = 0;
        }
        bad += seen[i].off != off;
        off += (off_t)CHUNK;
    }
    bad += in != N_IN - 1 || off < size_of(in);
    report(bad == 0 && results == N_IN && hasher_reads == 0 && most_held == N_BUFS - RESERVE,
           "flow: a cold run reads every input by the reader, in order, each front to back, once, "
           "and runs ahead as far as its buffers go (%zu reads, %d results of %d, %d asked of the "
           "hasher, at most %d buffers held, of %d)",
           n_seen, results, N_IN, hasher_reads, most_held, N_BUFS - RESERVE);
    flow_end();
    return tests_failed() ? 1 : 0;
}
