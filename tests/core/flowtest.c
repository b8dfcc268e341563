/* flowtest: the flow (src/flow.c) driven from one thread, the test playing
 * the caller (adding inputs, taking results), the reader (its reads, made
 * up) and one hasher.  Once a hasher's read finds the storage must be
 * waited for, the run is cold, and the storage must see one stream, as GNU
 * md5sum's: every input read by the reader, in input order, each front to
 * back, once; the reader runs ahead as far as its buffers go, never into
 * those left to the hashers.  Once the reader finds inputs in memory again,
 * a few in a row, the run is warm, and the hasher reads for itself; but an
 * input alone in its hasher's lanes the reader reads AHEAD_WARM chunks ahead.
 * Inputs go back to the caller untouched when it asks, or when a hasher
 * hands them back.  With two hashers, a warm input goes to the one that
 * holds fewer bytes, from before either has taken one.  Pre-reading (hashers
 * on threads of their own), a cold run is read through by the reader in
 * order, for the page cache only, and each input is then taken by the
 * hasher, which reads it again itself, behind the pre-reader (a large one
 * as soon as the pre-reader is part way through it); cold, the hasher that
 * joined last takes none unless the others hold COLD_SLACK more.  Storage
 * without seeks is asked for the small inputs ahead of the reader, once; a
 * descriptor the reader is using is closed by the reader. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/flow.h"
#include "testlib.h"

#define N_IN 10                       /* more chunks than the reader may hold */
#define N_BUFS (AHEAD_WARM + 8)
#define RESERVE 4   /* buffers left to the hashers' own reads */

#define MAX_SEEN 256

static struct flow_sleeper second;   /* a second hasher (balance) */

static struct {
    struct flow_sleeper hasher;
    size_t seen_in[MAX_SEEN], n_seen;   /* the reader's reads, in order */
    off_t seen_off[MAX_SEEN];
    int held, most_held;               /* the reader's buffers not yet hashed */
    int hasher_reads, bad;
} t;

#define LONE (2 * N_IN)   /* the input alone in the last run */
#define EARLY_IN (LONE + 16)   /* the first of early() */
#define HUGE_IN (EARLY_IN + 5 + N_IN)   /* an input larger than the pre-reader may hold */

static off_t size_of(size_t i)
{
    if (i == LONE)
        return (off_t)(CHUNK * (2 * AHEAD_WARM + 4));
    if (i == HUGE_IN)
        return (off_t)PRE_READ_MAX + (off_t)(CHUNK * 3);
    return (off_t)(CHUNK * (i % 3 + 3) + (i % 2 ? CHUNK / 2 : 0));   /* 3 to 5.5 chunks */
}

/* A hasher tells the flow what R says of input IN (locked). */
static void tell(size_t in, struct flow_report r)
{
    flow_tell_locked(in, &r, 0);
}

/* The hasher's turn with input IN: take the reader's chunks, or read a
 * chunk itself when told to; tell the flow when IN is done (1). */
static int hash_locked(size_t in)
{
    struct chunk *c;
    off_t off;
    int err, final = 0;
    enum flow_next next;

    while (!final && (next = flow_next_locked(in, &c, &off, &err)) == FLOW_CHUNK) {
        final = c->final;
        flow_unbuf_locked(c, 0);
        t.held--;
    }
    if (!final && next == FLOW_READ && (c = flow_buf_locked()) != NULL) {
        off_t len = size_of(in) - off < (off_t)CHUNK ? size_of(in) - off : (off_t)CHUNK;

        t.hasher_reads++;
        final = off + len == size_of(in);
        tell(in, (struct flow_report){.read = 1, .read_at = off + len, .ended = final});
        flow_unbuf_locked(c, 1);
    }
    if (final)
        tell(in, (struct flow_report){.done = 1, .r.hashed = (uintmax_t)size_of(in)});
    return final;
}

/* Inputs FIRST .. FIRST + N - 1 added, then the reader, the hasher (from
 * the third round on, so that the reader runs ahead as far as it may) and
 * the caller take turns until every result is out.  COLD: the hasher's
 * first read finds the storage must be waited for.  CACHED: what the
 * reader's first read of each input finds.  ALONE: what the hasher tells
 * the flow as it takes an input (no other in its lanes).  Returns the
 * results out. */
static int run(size_t first, size_t n, int cold, int cached, int alone)
{
    size_t taken[MAX_SEEN], n_taken = 0, head = first, in, i;
    int over[MAX_SEEN] = {0};   /* by position in TAKEN */
    int fd, rounds, results = 0;
    off_t size, off;
    const char *name;

    for (i = first; i < first + n; i++)   /* descriptors the flow only hands on */
        t.bad += !flow_room() || !flow_add(100 + (int)i, size_of(i), NULL, 0, &in) || in != i;
    if (cold) {
        flow_lock();
        t.bad += !flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher) || in != first;
        taken[n_taken++] = in;
        t.bad += flow_next_locked(in, &(struct chunk *){NULL}, &off, &(int){0}) != FLOW_READ;
        tell(in, (struct flow_report){.read = 1, .later = 1});
        flow_unlock();
    }
    for (rounds = 0; rounds < 1000 && results < (int)n; rounds++) {
        struct flow_read r;
        struct result res;

        while (t.n_seen < MAX_SEEN && flow_reader_next(&r)) {
            t.seen_in[t.n_seen] = r.in;
            t.seen_off[t.n_seen++] = r.off;
            r.len = (size_t)(r.size - r.off < (off_t)CHUNK ? r.size - r.off : (off_t)CHUNK);
            r.final = r.off + (off_t)r.len == r.size;
            flow_reader_put(&r, 0, 0, r.first ? cached : -1);
            if (r.c)   /* not a pre-read */
                t.most_held = ++t.held > t.most_held ? t.held : t.most_held;
        }
        flow_lock();
        for (i = 0; i < n_taken && rounds > 1; i++)
            over[i] = over[i] || hash_locked(taken[i]);
        while (n_taken < n && flow_take_locked(&in, &fd, &size, &name, alone, &t.hasher))
            taken[n_taken++] = in;
        flow_unlock();
        while (head < first + n && flow_result(head, &res, &fd, &size) == 1) {
            t.bad += res.hashed != (uintmax_t)size_of(head);
            head++;
            results++;
        }
    }
    return results;
}

/* The reader's reads from the Kth on: one stream, input after input from
 * FIRST to LAST, each chunk once, front to back.  Returns what is wrong. */
static int one_stream(size_t k, size_t first, size_t last)
{
    size_t in = first;
    off_t off = 0;
    int bad = 0;

    for (; k < t.n_seen; k++) {
        if (t.seen_in[k] != in) {
            bad += off < size_of(in) || t.seen_in[k] != in + 1 || t.seen_off[k] != 0;
            in = t.seen_in[k];
            off = 0;
        }
        bad += t.seen_off[k] != off;
        off += (off_t)CHUNK;
    }
    return bad + (in != last || off < size_of(in));
}

/* Warm: an input no one has taken goes back to the caller when it asks
 * (it hashes a small last input itself rather than wake a hasher); one a
 * hasher took does not.  And one a hasher took by name and handed back
 * (only the caller may open it) comes back as the caller's, unread.
 * Inputs from FIRST on; returns what is wrong. */
static int take_and_hand_back(size_t first)
{
    struct result res;
    struct flow_read r;
    size_t in;
    int fd, bad = 0;
    off_t size;
    const char *name;

    bad += !flow_add(200, 100, NULL, 0, &in) || in != first || !flow_take_back(first);
    bad += !flow_add(201, 100, NULL, 0, &in) || in != first + 1;
    flow_lock();
    bad += !flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher) || in != first + 1;
    flow_unlock();
    bad += flow_take_back(first + 1);
    flow_lock();
    tell(first + 1, (struct flow_report){.done = 1, .r.hashed = 100});
    flow_unlock();
    bad += flow_result(first + 1, &res, &fd, &size) != 1 || res.hashed != 100;
    bad += !flow_add(-1, -1, "name", 0, &in) || in != first + 2;
    flow_lock();
    bad += !flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher) || in != first + 2 || fd != -1 ||
           !name || strcmp(name, "name") != 0;
    tell(first + 2, (struct flow_report){.handed = 1, .fd = -1, .size = -1});
    flow_unlock();
    bad += flow_reader_next(&r);
    bad += flow_result(first + 2, &res, &fd, &size) != 2 || fd != -1;
    /* Handed back once opened (a file that cannot be read at an offset):
     * by name by its hasher, or by the caller.  Once each is the caller's,
     * no descriptor is counted as the hashers' (flow_hasher_fds). */
    bad += !flow_add(-1, -1, "name", 0, &in) || in != first + 3;
    bad += !flow_add(202, 100, NULL, 0, &in) || in != first + 4;
    flow_lock();
    bad += !flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher) || in != first + 3;
    tell(first + 3, (struct flow_report){.opened = 1, .fd = 7, .size = 100});
    bad += !flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher) || in != first + 4;
    flow_unlock();
    bad += flow_hasher_fds() != 1;
    flow_lock();
    tell(first + 3, (struct flow_report){.handed = 1, .fd = 7, .size = 100});
    tell(first + 4, (struct flow_report){.handed = 1, .fd = 202, .size = 100});
    flow_unlock();
    bad += flow_result(first + 3, &res, &fd, &size) != 2 || fd != 7;
    bad += flow_result(first + 4, &res, &fd, &size) != 2 || fd != 202;
    bad += flow_hasher_fds() != 0;
    return bad;
}

/* Pre-reading, cold, an input larger than PRE_READ_MAX (HUGE_IN): the
 * pre-reader stops part way, and the input goes to the hasher anyway, for
 * the reader to read into buffers: no one waits for ever.  Returns what is
 * wrong. */
static int pre_read_huge(void)
{
    struct result res;
    struct flow_read r;
    size_t in;
    int fd, rounds, taken = 0, over = 0, bad = 0;
    off_t size;
    const char *name;

    bad += !flow_add(600, size_of(HUGE_IN), NULL, 0, &in) || in != HUGE_IN;
    for (rounds = 0; rounds < 100000 && !over; rounds++) {
        if (flow_reader_next(&r)) {
            r.len = (size_t)(r.size - r.off < (off_t)CHUNK ? r.size - r.off : (off_t)CHUNK);
            r.final = r.off + (off_t)r.len == r.size;
            flow_reader_put(&r, 0, 0, r.first ? 0 : -1);
            t.held += r.c != NULL;
            continue;
        }
        flow_lock();
        taken = taken || flow_take_locked(&in, &fd, &size, &name, 0, &t.hasher);
        over = taken && hash_locked(HUGE_IN);
        flow_unlock();
    }
    bad += !over || flow_result(HUGE_IN, &res, &fd, &size) != 1 ||
           res.hashed != (uintmax_t)size_of(HUGE_IN);
    return bad;
}

/* A program of its own: md5test links hasher_tests.c, whose flow is
 * made up. */
/* Input IN taken by S (1), or refused (0). */
static int take_by(struct flow_sleeper *s, size_t in)
{
    size_t got;
    int fd;
    off_t size;
    const char *name;
    int took;

    flow_lock();
    took = flow_take_locked(&got, &fd, &size, &name, 0, s);
    flow_unlock();
    t.bad += took && got != in;
    return took;
}

static void done(size_t in, uintmax_t hashed)
{
    flow_lock();
    tell(in, (struct flow_report){.done = 1, .r.hashed = hashed});
    flow_unlock();
}

/* Warm, two hashers: the next input goes to the one that holds fewer
 * bytes, by more than BALANCE_SLACK (S); an input not yet opened is counted
 * as the mean size learnt so far.  Inputs from FIRST: 40 S, 40 S, 80 S and
 * 40 S, two names, and a byte.  Returns what went otherwise. */
static int balance(size_t first)
{
    static const off_t sizes[] = {40, 40, 80, 40, -1, -1, 0};   /* in S; 0: a byte */
    const off_t s = (off_t)BALANCE_SLACK;
    struct result res;
    size_t i, in;
    int fd, bad = 0;
    off_t size;

    bad += flow_join(&second) != 0;
    for (i = 0; i < 7; i++)
        bad += !flow_add(sizes[i] < 0 ? -1 : 300 + (int)i, sizes[i] ? sizes[i] * s : 1,
                         sizes[i] < 0 ? "name" : NULL, 0, &in) || in != first + i;
    bad += !take_by(&t.hasher, first) || !take_by(&second, first + 1);   /* 40 each */
    done(first, (uintmax_t)(40 * s));
    bad += !take_by(&t.hasher, first + 2);   /* 0 against 40: 80 */
    bad += take_by(&t.hasher, first + 3);    /* 80 against 40: refused */
    bad += !take_by(&second, first + 3);          /* 40 against 80: 80 */
    /* A name, counted as the mean of the sizes learnt so far (about 200 S
     * over the 4 here and the dozen of a few chunks before): over 81. */
    bad += !take_by(&t.hasher, first + 4);
    bad += take_by(&t.hasher, first + 5);    /* over 81 against 80: refused */
    if (bad + t.bad > 0)   /* an input not taken: not to be opened or done */
        return bad + t.bad;
    flow_lock();
    tell(first + 4, (struct flow_report){.opened = 1, .fd = 400, .size = s / 2});   /* 80.5 once opened */
    flow_unlock();
    bad += !take_by(&second, first + 5);          /* 80 against 80.5 */
    flow_lock();
    tell(first + 5, (struct flow_report){.opened = 1, .fd = 401, .size = 10});
    flow_unlock();
    bad += !take_by(&t.hasher, first + 6);   /* 80.5 against 80 and 10 bytes */
    if (bad + t.bad > 0)
        return bad + t.bad;
    for (i = 1; i < 7; i++)
        done(first + i, (uintmax_t)(i == 4 ? s / 2 : i == 5 ? 10 : i == 6 ? 1 : sizes[i] * s));
    for (i = 0; i < 7; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    return bad + t.bad + (t.hasher.bytes != 0) + (second.bytes != 0);
}

/* The hashers balance holds against: one that left (its thread would not
 * start), from behind a newer one, is not waited for, and one that joined
 * is, before its first take.  Inputs from FIRST: three of 40 S.  Returns
 * what went otherwise. */
static int joined(size_t first)
{
    static struct flow_sleeper third, newer;
    const off_t s = (off_t)BALANCE_SLACK;
    struct result res;
    size_t i, in;
    int fd, bad = 0;
    off_t size;

    for (i = 0; i < 3; i++)
        bad += !flow_add(500 + (int)i, 40 * s, NULL, 0, &in) || in != first + i;
    bad += flow_join(&newer) != 0;
    flow_leave(&second);   /* found past NEWER */
    flow_leave(&newer);
    bad += !take_by(&t.hasher, first) || !take_by(&t.hasher, first + 1);   /* alone: 80 */
    bad += flow_join(&third) != 0;
    bad += take_by(&t.hasher, first + 2);    /* 80 against 0: refused */
    bad += !take_by(&third, first + 2);
    if (bad + t.bad > 0)
        return bad + t.bad;
    for (i = 0; i < 3; i++)
        done(first + i, (uintmax_t)(40 * s));
    for (i = 0; i < 3; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    flow_leave(&third);   /* the hasher of the tests below */
    return bad + t.bad;
}

/* Warm, inputs added EARLY are taken largest first, before older ones,
 * while the oldest not taken is such an input; the others in order.  Inputs
 * from FIRST, in chunks: 1 early, 1, 3 early, 2 early, 5.  Returns what
 * went otherwise. */
static int early(size_t first)
{
    static const int chunks[] = {1, 1, 3, 2, 5}, is_early[] = {1, 0, 1, 1, 0};
    static const size_t order[] = {2, 3, 0, 1, 4};
    struct flow_stats st;
    struct result res;
    uintmax_t all;
    unsigned long before;
    size_t i, in;
    int fd, bad = 0;
    off_t size;

    flow_hashed((size_t)-1, &all, &st);
    before = st.early;
    for (i = 0; i < 5; i++)
        bad += !flow_add(700 + (int)i, (off_t)(chunks[i] * CHUNK), NULL, is_early[i], &in) ||
               in != first + i;
    for (i = 0; i < 5 && bad + t.bad == 0; i++)
        bad += !take_by(&t.hasher, first + order[i]);
    if (bad + t.bad > 0)
        return bad + t.bad;
    for (i = 0; i < 5; i++)
        done(first + i, (uintmax_t)(chunks[i] * CHUNK));
    for (i = 0; i < 5; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    flow_hashed((size_t)-1, &all, &st);
    return bad + t.bad + (st.early != before + 2);
}

/* Cold, the inputs a hasher took while the run was warm: it reads on only
 * where the page cache tells it holds the next chunk (FLOW_PROBE), as a
 * read that misses would ask the storage out of order.  Two inputs from
 * FIRST, taken warm; a read of the second finds the storage must be waited
 * for.  Returns what went otherwise. */
static int probe_when_cold(size_t first)
{
    struct result res;
    struct chunk *c;
    off_t off, size;
    size_t in, i;
    int fd, err, bad = 0;

    for (i = 0; i < 2; i++)
        bad += !flow_add(900 + (int)i, (off_t)(4 * CHUNK), NULL, 0, &in) || in != first + i;
    for (i = 0; i < 2 && bad == 0; i++)
        bad += !take_by(&t.hasher, first + i);
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    bad += flow_next_locked(first, &c, &off, &err) != FLOW_READ || off != 0;
    tell(first, (struct flow_report){.read = 1, .read_at = CHUNK});
    tell(first + 1, (struct flow_report){.read = 1, .later = 1});
    bad += flow_next_locked(first, &c, &off, &err) != FLOW_PROBE || off != CHUNK;
    tell(first, (struct flow_report){.read = 1, .read_at = 2 * CHUNK});   /* it held it */
    bad += flow_next_locked(first, &c, &off, &err) != FLOW_PROBE || off != 2 * CHUNK;
    flow_unlock();
    for (i = 0; i < 2; i++) {
        done(first + i, 4 * CHUNK);
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    }
    return bad + t.bad;
}

/* Three inputs fed to the test's hasher, from FIRST, then a fourth that
 * OTHER takes and finds not in memory: the run turns cold, and the reader
 * still reads the three side by side, AHEAD_WARM chunks ahead each, not
 * one after another.  Returns what went otherwise. */
static int cold_side_by_side(size_t first, struct flow_sleeper *other)
{
    struct flow_read r;
    struct result res;
    size_t i, in, reads[3] = {0, 0, 0};
    int fd, bad = 0;
    off_t size;

    for (i = 0; i < 4; i++)
        bad += !flow_add(1100 + (int)i, i < 3 ? FEED_MIN : (off_t)(4 * CHUNK), NULL, i < 3, &in) ||
               in != first + i;
    for (i = 0; i < 3 && bad == 0; i++)
        bad += !take_by(&t.hasher, first + i);
    bad += bad == 0 && !take_by(other, first + 3);
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    tell(first + 3, (struct flow_report){.read = 1, .later = 1});
    flow_unlock();
    while (flow_reader_next(&r)) {   /* as far as the buffers go */
        if (r.c && r.in >= first && r.in < first + 3)   /* not pre-reads */
            reads[r.in - first]++;
        r.len = CHUNK;
        r.final = r.off + (off_t)CHUNK >= r.size;
        flow_reader_put(&r, 0, 0, -1);
    }
    for (i = 0; i < 4; i++)
        done(first + i, (uintmax_t)(i < 3 ? FEED_MIN : 4 * CHUNK));
    for (i = 0; i < 4; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    return bad + (reads[0] != AHEAD_WARM) + (reads[1] == 0);
}

/* Warm, few large inputs (EARLY, FEED_MIN bytes or more, no more than
 * flow_feed's N in the flow) go to one hasher, balance not holding against it, and the
 * reader reads them ahead for it; more are balanced as any others.  Inputs
 * from FIRST: three, then FEED_MAX + 1.  Returns what went otherwise. */
static int feed(size_t first)
{
    static struct flow_sleeper other;
    struct flow_stats st;
    struct result res;
    struct chunk *c;
    uintmax_t all;
    unsigned long before;
    off_t off, size;
    size_t i, in;
    int fd, err, bad = 0;

    flow_hashed((size_t)-1, &all, &st);
    before = st.fed;
    flow_feed(FEED_MAX);
    bad += flow_join(&other) != 0;
    for (i = 0; i < 3; i++)
        bad += !flow_add(1000 + (int)i, FEED_MIN, NULL, 1, &in) || in != first + i;
    bad += !take_by(&t.hasher, first) || take_by(&other, first + 1);   /* fewer bytes, not fed */
    bad += !take_by(&t.hasher, first + 1) || !take_by(&t.hasher, first + 2);
    if (bad + t.bad > 0)   /* an input not taken: not to be done */
        return bad + t.bad;
    flow_lock();
    for (i = 0; i < 3; i++)   /* for the reader to read */
        bad += flow_next_locked(first + i, &c, &off, &err) != FLOW_WAIT;
    flow_unlock();
    for (i = 0; i < 3; i++)
        done(first + i, (uintmax_t)FEED_MIN);
    for (i = 3; i < 4 + FEED_MAX; i++)   /* more than may be fed */
        bad += !flow_add(1000 + (int)i, FEED_MIN, NULL, 1, &in) || in != first + i;
    bad += !take_by(&t.hasher, first + 3) || take_by(&t.hasher, first + 4);   /* OTHER holds fewer */
    for (i = 4; i < 4 + FEED_MAX; i++)
        bad += !take_by(&other, first + i) && !take_by(&t.hasher, first + i);
    if (bad + t.bad > 0)   /* an input not taken: not to be done */
        return bad + t.bad;
    flow_lock();
    bad += flow_next_locked(first + 3, &c, &off, &err) != FLOW_READ;   /* its own */
    flow_unlock();
    for (i = 3; i < 4 + FEED_MAX; i++)
        done(first + i, (uintmax_t)FEED_MIN);
    for (i = 0; i < 4 + FEED_MAX; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    bad += cold_side_by_side(first + 4 + FEED_MAX, &other);
    flow_hashed((size_t)-1, &all, &st);
    flow_leave(&other);
    flow_feed(0);
    return bad + t.bad + (st.fed != before + 6) + (t.hasher.fed != 0) + (other.bytes != 0);
}

/* Cold, the hasher that joined last (OTHER) takes no input while the
 * test's hasher holds less than COLD_SLACK bytes more than it: the reader
 * keeps a CPU of its own.  Inputs from FIRST, taken warm: one of
 * COLD_SLACK + 8 chunks by the test's hasher, one of 4 chunks by OTHER;
 * then, cold and pre-read, two of 4 chunks.  Returns what went otherwise. */
static int cold_one_taker(size_t first)
{
    static struct flow_sleeper other;
    const off_t big = (off_t)COLD_SLACK + (off_t)(8 * CHUNK), small = (off_t)(4 * CHUNK);
    struct flow_read r;
    struct result res;
    size_t i, in;
    int fd, bad = flow_join(&other) != 0;
    off_t size;

    for (i = 0; i < 4; i++)
        bad += !flow_add(1200 + (int)i, i == 0 ? big : small, NULL, 0, &in) || in != first + i;
    bad += !take_by(&t.hasher, first) || !take_by(&other, first + 1);
    if (bad + t.bad > 0)   /* an input not taken: not to be done */
        return bad + t.bad;
    flow_lock();
    tell(first + 1, (struct flow_report){.read = 1, .later = 1});   /* cold */
    flow_unlock();
    while (flow_reader_next(&r)) {   /* the rest pre-read */
        r.len = CHUNK;
        r.final = r.off + (off_t)CHUNK >= r.size;
        flow_reader_put(&r, 0, 0, -1);
    }
    bad += !take_by(&other, first + 2);   /* the other holds COLD_SLACK more */
    done(first, (uintmax_t)big);
    bad += take_by(&other, first + 3);    /* now it does not: refused */
    bad += !take_by(&t.hasher, first + 3);
    if (bad + t.bad > 0)
        return bad + t.bad;
    for (i = 1; i < 4; i++)
        done(first + i, (uintmax_t)small);
    for (i = 0; i < 4; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    flow_leave(&other);
    return bad + t.bad;
}

/* Cold and pre-reading, a large input the pre-reader is part way through
 * is taken, and read by its hasher behind the pre-reader: what it
 * pre-read, then, past it, nothing until it reads on; a read behind that
 * misses (a read-ahead mark) waits for its next read.  What the hasher
 * read again is no longer held, so an input larger than PRE_READ_MAX is
 * pre-read whole, and the reader reads none of it into buffers.  Inputs
 * from FIRST: PRE_READ_MAX + 4 chunks, then 4 chunks.  Returns what went
 * otherwise. */
static int follow(size_t first)
{
    const off_t big = (off_t)PRE_READ_MAX + (off_t)(4 * CHUNK), small = (off_t)(4 * CHUNK);
    struct flow_stats st;
    struct flow_read r;
    struct result res;
    struct chunk *c;
    uintmax_t all, before;
    enum flow_next next = FLOW_READ;
    size_t i, in;
    int fd, err, rounds, bad = 0;
    off_t off = 0, size;

    flow_hashed((size_t)-1, &all, &st);
    before = st.reader_bytes;
    for (i = 0; i < 2; i++)
        bad += !flow_add(1300 + (int)i, i == 0 ? big : small, NULL, 0, &in) || in != first + i;
    bad += take_by(&t.hasher, first);   /* nothing of it read yet */
    bad += !flow_reader_next(&r) || r.c || r.in != first || r.off != 0;
    if (bad + t.bad > 0)
        return bad + t.bad;
    r.len = CHUNK;
    r.final = 0;
    flow_reader_put(&r, 0, 0, 0);
    bad += !take_by(&t.hasher, first);
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    bad += flow_next_locked(first, &c, &off, &err) != FLOW_READ || off != 0;
    tell(first, (struct flow_report){.read = 1, .later = 1});   /* missed behind */
    bad += flow_next_locked(first, &c, &off, &err) != FLOW_WAIT;
    flow_unlock();
    for (rounds = 0, off = 0; rounds < 10000 && off < big && next != FLOW_PROBE; rounds++) {
        if (flow_reader_next(&r)) {   /* the pre-reader, a chunk a round */
            bad += r.c != NULL || r.in != first;
            r.len = CHUNK;
            r.final = r.off + (off_t)CHUNK >= r.size;
            t.hasher.asleep = 1;   /* as if it waited: woken by each chunk */
            flow_reader_put(&r, 0, 0, -1);
            bad += t.hasher.asleep;
            t.hasher.asleep = 0;
        }
        flow_lock();
        while ((next = flow_next_locked(first, &c, &off, &err)) == FLOW_READ && off < big)
            tell(first, (struct flow_report){.read = 1, .read_at = off + (off_t)CHUNK});
        flow_unlock();
    }
    bad += off != big;
    done(first, (uintmax_t)big);
    while (flow_reader_next(&r)) {   /* the next input, pre-read */
        r.len = CHUNK;
        r.final = r.off + (off_t)CHUNK >= r.size;
        flow_reader_put(&r, 0, 0, -1);
    }
    bad += !take_by(&t.hasher, first + 1);
    done(first + 1, (uintmax_t)small);
    for (i = 0; i < 2; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    flow_hashed((size_t)-1, &all, &st);
    return bad + t.bad + (st.reader_bytes != before);
}

/* Cold and pre-reading, the pre-reader holding PRE_READ_MAX bytes that no
 * hasher reads (an input not taken, lanes all waiting): those waiting
 * ahead of it are woken, and read by probes (the reader then reads for
 * them, as for any input whose read missed) rather than wait for it.
 * Inputs from FIRST, both EARLY: PRE_READ_MAX + 4 chunks, not taken; then
 * 4 chunks more, taken first (the larger), warm, whose read misses.
 * Returns what went otherwise. */
static int follow_full(size_t first)
{
    const off_t big = (off_t)PRE_READ_MAX + (off_t)(4 * CHUNK), bigger = big + (off_t)(4 * CHUNK);
    struct flow_read r;
    struct result res;
    struct chunk *c;
    size_t i, in;
    int fd, err, woken = 0, bad = 0;
    off_t off, size;

    for (i = 0; i < 2; i++)
        bad += !flow_add(1400 + (int)i, i == 0 ? big : bigger, NULL, 1, &in) || in != first + i;
    bad += !take_by(&t.hasher, first + 1);   /* the larger, taken first */
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    tell(first + 1, (struct flow_report){.read = 1, .later = 1});   /* cold */
    bad += flow_next_locked(first + 1, &c, &off, &err) != FLOW_WAIT;
    flow_unlock();
    while (flow_reader_next(&r)) {   /* the first, pre-read as far as it may */
        bad += r.c != NULL || r.in != first;
        r.len = CHUNK;
        r.final = r.off + (off_t)CHUNK >= r.size;
        t.hasher.asleep = 1;
        flow_reader_put(&r, 0, 0, -1);
        woken += !t.hasher.asleep;
        t.hasher.asleep = 0;
    }
    flow_lock();
    bad += flow_next_locked(first + 1, &c, &off, &err) != FLOW_PROBE;
    tell(first + 1, (struct flow_report){.read = 1, .later = 2});   /* the probe missed */
    bad += flow_next_locked(first + 1, &c, &off, &err) != FLOW_WAIT;
    flow_unlock();
    bad += !flow_reader_next(&r) || !r.c || r.in != first + 1;   /* for the reader */
    if (r.c) {
        r.len = CHUNK;
        r.final = 0;
        flow_reader_put(&r, 0, 0, -1);
    }
    bad += woken != 1;
    if (!take_by(&t.hasher, first))   /* an input not taken: not to be done */
        return bad + t.bad + 1;
    for (i = 0; i < 2; i++)
        done(first + i, (uintmax_t)(i == 0 ? big : bigger));
    for (i = 0; i < 2; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    return bad + t.bad;
}

/* Storage without seeks is asked for the small inputs after the one the
 * reader starts (flow_ahead): each input once, none larger than asked, and
 * none not yet opened (no descriptor).  Inputs from FIRST: 1, 1 and 9
 * chunks, a name, 1 and 1 chunks.  Returns what went otherwise. */
static int ahead(size_t first)
{
    static const int chunks[] = {1, 1, 9, 0, 1, 1};
    const off_t max = (off_t)(4 * CHUNK);
    int fds[8], bad = 0;
    unsigned n;
    size_t i, in, ins[8];

    for (i = 0; i < 6; i++)
        bad += !(chunks[i] ? flow_add(1500 + (int)i, (off_t)(chunks[i] * CHUNK), NULL, 0, &in)
                           : flow_add(-1, -1, "name", 0, &in)) ||
               in != first + i;
    if (bad + t.bad > 0)
        return bad + t.bad;
    n = flow_ahead(first, ins, fds, 2, max);       /* the second; the third is too large */
    bad += n != 1 || fds[0] != 1501 || ins[0] != first + 1;
    for (i = 0; i < n; i++)
        flow_unpin(ins[i]);
    n = flow_ahead(first + 1, ins, fds, 4, max);   /* the fifth and sixth */
    bad += n != 2 || fds[0] != 1504 || fds[1] != 1505 || ins[1] != first + 5;
    for (i = 0; i < n; i++)
        flow_unpin(ins[i]);
    bad += flow_ahead(first + 2, ins, fds, 8, max) != 0;
    for (i = 0; i < 6; i++)
        bad += !flow_take_back(first + i);
    return bad + t.bad;
}

/* Cold, inputs given by flow_ahead and then found in memory by the reader
 * say nothing of the run: it stays cold (four found so in a row would turn
 * it warm).  Six inputs of a chunk from FIRST.  Returns what went
 * otherwise. */
static int ahead_cold(size_t first)
{
    struct flow_stats st;
    struct flow_read r;
    struct result res;
    uintmax_t all;
    unsigned long warm;
    int fds[8], fd, bad = 0;
    size_t i, in, ins[8];
    off_t size;

    for (i = 0; i < 6; i++)
        bad += !flow_add(1600 + (int)i, (off_t)CHUNK, NULL, 0, &in) || in != first + i;
    bad += flow_ahead(first, ins, fds, 8, (off_t)CHUNK) != 5 || !take_by(&t.hasher, first);
    for (i = 0; i < 5; i++)
        flow_unpin(ins[i]);
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    tell(first, (struct flow_report){.read = 1, .later = 1});   /* cold */
    flow_unlock();
    flow_hashed((size_t)-1, &all, &st);
    warm = st.warm;
    while (flow_reader_next(&r)) {   /* each found in memory */
        r.len = CHUNK;
        r.final = 1;
        flow_reader_put(&r, 0, 0, r.first ? 1 : -1);
    }
    flow_hashed((size_t)-1, &all, &st);
    bad += st.warm != warm;
    for (i = 1; i < 6; i++)
        bad += !take_by(&t.hasher, first + i);
    for (i = 0; i < 6; i++)
        done(first + i, (uintmax_t)CHUNK);
    for (i = 0; i < 6; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1;
    return bad + t.bad;
}

/* A hasher done with an input closes its descriptor only if the reader is
 * not using it (flow_closing_locked); otherwise the reader closes it when done
 * (flow_unpin, as flow_reader_put), and a close that fails then makes the
 * result a read error, whether the hasher told it done before or after.
 * Four inputs from FIRST, open on /dev/null, the last three given by
 * flow_ahead; the last two closed here first, so that the reader's close
 * fails (EBADF).  Returns what went otherwise. */
static int closing(size_t first)
{
    static const enum result_status want[] = {RESULT_OK, RESULT_OK, RESULT_READ_FAILED,
                                              RESULT_READ_FAILED};
    struct result res;
    int fds[4], got[4], fd, bad = 0;
    size_t i, in, ins[4];
    off_t size;

    for (i = 0; i < 4; i++) {
        fds[i] = open("/dev/null", O_RDONLY);
        bad += fds[i] < 0 || !flow_add(fds[i], (off_t)CHUNK, NULL, 0, &in) || in != first + i;
    }
    bad += flow_ahead(first, ins, got, 4, (off_t)CHUNK) != 3 || ins[0] != first + 1;
    for (i = 0; i < 4; i++)
        bad += !take_by(&t.hasher, first + i);
    if (bad + t.bad > 0)
        return bad + t.bad;
    flow_lock();
    bad += flow_closing_locked(first) != 1;          /* not in use: the hasher's */
    for (i = 1; i < 4; i++)
        bad += flow_closing_locked(first + i) != 0;  /* in use: the reader's */
    flow_unlock();
    bad += close(fds[0]) != 0;
    bad += fcntl(fds[1], F_GETFD) == -1;
    flow_unpin(first + 1);
    bad += fcntl(fds[1], F_GETFD) != -1 || errno != EBADF;   /* closed by the reader */
    done(first, (uintmax_t)CHUNK);
    done(first + 1, (uintmax_t)CHUNK);
    done(first + 2, (uintmax_t)CHUNK);   /* told done, then the reader's close fails */
    close(fds[2]);
    flow_unpin(first + 2);
    close(fds[3]);                       /* the reader's close fails, then told done */
    flow_unpin(first + 3);
    done(first + 3, (uintmax_t)CHUNK);
    for (i = 0; i < 4; i++)
        bad += flow_result(first + i, &res, &fd, &size) != 1 || res.status != want[i] ||
               (want[i] != RESULT_OK && res.err != EBADF);
    return bad + t.bad;
}

int main(void)
{
    struct flow_stats st;
    uintmax_t all, in_bufs;
    size_t k;
    int results, reads;

    if (flow_init(N_BUFS, RESERVE, (size_t)1 << 20, UINTMAX_MAX) != 0 || flow_join(&t.hasher) != 0) {
        report(0, "flow: no memory for %d buffers", N_BUFS);
        return 1;
    }
    results = run(0, N_IN, 1, 0, 0);
    report(results == N_IN && t.bad == 0 && one_stream(0, 0, N_IN - 1) == 0 &&
               t.hasher_reads == 0 && t.most_held == N_BUFS - RESERVE,
           "flow: a cold run reads every input by the reader, in order, each front to back, once, "
           "and runs ahead as far as its buffers go (%zu reads, %d results of %d, %d asked of the "
           "hasher, at most %d buffers held, of %d)",
           t.n_seen, results, N_IN, t.hasher_reads, t.most_held, N_BUFS - RESERVE);
    /* Then inputs in memory again: a few found so by the reader in a row,
     * and the run is warm: the hasher reads the rest itself. */
    k = t.n_seen;
    results = run(N_IN, N_IN, 0, 1, 0);
    flow_hashed((size_t)-1, &all, &st);
    report(results == N_IN && t.bad == 0 && st.warm == 1 && t.hasher_reads > 0 &&
               one_stream(k, N_IN, t.seen_in[t.n_seen - 1]) == 0,
           "flow: a cold run turns warm once inputs are found in memory: the hasher reads the rest "
           "(%d results of %d, %lu turns warm, %d asked of the hasher)",
           results, N_IN, st.warm, t.hasher_reads);
    /* Warm, an input alone in its hasher's lanes: the reader reads it
     * AHEAD_WARM chunks ahead, so that the hasher only hashes. */
    k = t.n_seen;
    reads = t.hasher_reads;
    t.most_held = t.held = 0;
    results = run(LONE, 1, 0, 1, 1);
    report(results == 1 && t.bad == 0 && t.hasher_reads == reads && t.most_held == AHEAD_WARM &&
               one_stream(k, LONE, LONE) == 0,
           "flow: warm, an input alone in its hasher's lanes is read by the reader, %d chunks "
           "ahead (%zu reads, %d asked of the hasher, at most %d chunks ahead)",
           AHEAD_WARM, t.n_seen - k, t.hasher_reads - reads, t.most_held);
    k = (size_t)take_and_hand_back(LONE + 1);
    report(k == 0, "flow: warm, an input no one took goes back to the caller when asked, one a "
           "hasher took does not, and one a hasher hands back comes back unread, its descriptor "
           "no longer counted as the hashers' (%zu wrong)", k);
    k = (size_t)balance(LONE + 6);
    report(k == 0, "flow: warm, the next input goes to a hasher that holds fewer bytes by %zu MiB, "
           "one not yet opened counted as the mean size (%zu wrong)", (size_t)(BALANCE_SLACK >> 20), k);
    k = (size_t)joined(LONE + 13);
    report(k == 0, "flow: balance holds against a hasher that joined before its first take, not "
           "one that left (%zu wrong)", k);
    k = (size_t)early(EARLY_IN);
    report(k == 0, "flow: warm, inputs the caller marked early are taken largest first, before "
           "older ones; the others in order (%zu wrong)", k);
    /* Pre-reading: the first input, whose read found the storage must be
     * waited for, is read by the reader into buffers; the rest are read
     * through in order for the page cache, then read by the hasher. */
    flow_pre_read();
    t.n_seen = 0;
    t.hasher_reads = t.held = t.most_held = 0;
    flow_hashed((size_t)-1, &all, &st);
    in_bufs = st.reader_bytes;
    results = run(EARLY_IN + 5, N_IN, 1, 0, 0);
    flow_hashed((size_t)-1, &all, &st);
    for (k = EARLY_IN + 5, all = 0; k < EARLY_IN + 5 + N_IN; k++)
        all += (uintmax_t)size_of(k);
    report(results == N_IN && t.bad == 0 && one_stream(0, EARLY_IN + 5, EARLY_IN + 4 + N_IN) == 0 &&
               st.pre_read_bytes == all && t.hasher_reads > 0 && st.reader_bytes == in_bufs,
           "flow: pre-reading, a cold run is read by the reader in order, each input front to back, "
           "once, and hashed by its hasher from memory, the one whose read found the storage must "
           "be waited for behind the pre-reader (%zu reads, %d results of %d, %ju bytes pre-read of "
           "%ju, %d asked of the hasher, %ju read into buffers)",
           t.n_seen, results, N_IN, st.pre_read_bytes, all, t.hasher_reads,
           st.reader_bytes - in_bufs);
    k = (size_t)pre_read_huge();
    report(k == 0, "flow: pre-reading, an input larger than the %ju MiB the pre-reader may hold "
           "goes to its hasher once that much is held, and the reader reads it (%zu wrong)",
           PRE_READ_MAX >> 20, k);
    /* Warm again (inputs found in memory), then a hasher's miss. */
    results = run(HUGE_IN + 1, N_IN, 0, 1, 0);
    k = (size_t)probe_when_cold(HUGE_IN + 1 + N_IN);
    report(results == N_IN && k == 0,
           "flow: cold, an input a hasher took warm is read on by it only where the page cache "
           "holds the next chunk (%d results of %d, %zu wrong)", results, N_IN, k);
    results = run(HUGE_IN + 3 + N_IN, N_IN, 0, 1, 0);   /* warm again */
    k = (size_t)feed(HUGE_IN + 3 + 2 * N_IN);
    report(results == N_IN && k == 0,
           "flow: warm, up to %d inputs of %ju MiB or more go to one hasher and are read ahead "
           "by the reader, side by side even once the run turns cold; more are balanced (%d "
           "results of %d, %zu wrong)",
           FEED_MAX, (uintmax_t)(FEED_MIN >> 20), results, N_IN, k);
    results = run(HUGE_IN + 11 + 2 * N_IN + FEED_MAX, N_IN, 0, 1, 0);   /* warm again */
    k = (size_t)cold_one_taker(HUGE_IN + 11 + 3 * N_IN + FEED_MAX);
    report(results == N_IN && k == 0,
           "flow: cold, the hasher that joined last takes no input unless the others hold "
           "%ju MiB more than it (%d results of %d, %zu wrong)",
           (uintmax_t)(COLD_SLACK >> 20), results, N_IN, k);
    k = (size_t)follow(HUGE_IN + 15 + 3 * N_IN + FEED_MAX);
    report(k == 0, "flow: cold, an input of %ju MiB or more is taken as the pre-reader reads it, "
           "and read behind it, whole, however large (%zu wrong)", (uintmax_t)(FEED_MIN >> 20), k);
    results = run(HUGE_IN + 17 + 3 * N_IN + FEED_MAX, N_IN, 0, 1, 0);   /* warm again */
    k = (size_t)follow_full(HUGE_IN + 17 + 4 * N_IN + FEED_MAX);
    report(results == N_IN && k == 0,
           "flow: cold, with %ju MiB pre-read and not read again, those waiting ahead of the "
           "pre-reader are woken and read by probes (%d results of %d, %zu wrong)",
           PRE_READ_MAX >> 20, results, N_IN, k);
    results = run(HUGE_IN + 19 + 4 * N_IN + FEED_MAX, N_IN, 0, 1, 0);   /* warm again */
    k = (size_t)ahead(HUGE_IN + 19 + 5 * N_IN + FEED_MAX);
    report(results == N_IN && k == 0,
           "flow: the small inputs after the one the reader starts are given for the storage to be "
           "asked for, each once, none larger than asked or not yet opened (%d results of %d, %zu "
           "wrong)", results, N_IN, k);
    k = (size_t)ahead_cold(HUGE_IN + 25 + 5 * N_IN + FEED_MAX);
    report(k == 0, "flow: cold, inputs given for the storage to be asked for and then found in "
           "memory by the reader do not turn the run warm (%zu wrong)", k);
    results = run(HUGE_IN + 31 + 5 * N_IN + FEED_MAX, N_IN, 0, 1, 0);   /* warm again */
    k = (size_t)closing(HUGE_IN + 31 + 6 * N_IN + FEED_MAX);
    report(results == N_IN && k == 0,
           "flow: a descriptor the reader is using is closed by the reader once done, not by the "
           "hasher done with its input, and a close that fails then is a read error (%d results of "
           "%d, %zu wrong)", results, N_IN, k);
    flow_end();
    return tests_failed() ? 1 : 0;
}
