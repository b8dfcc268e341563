/* The inputs between the engine's stages: added in order by the reading
 * stage (the caller's thread), read by it or by their hasher, hashed by the
 * hashers, their results back in order.  One lock guards it all, taken once
 * a step of a hasher, and by the reader once an input and twice a chunk it
 * reads.
 *
 * Who reads an input: its hasher, with reads that never wait (what the
 * page cache holds, in any order); or the reader, in input order, front to
 * back, when the storage must be waited for (the run is "cold" until the
 * reader finds the inputs ahead in memory again), or when the input, of
 * more than a chunk, is alone in its hasher's lanes, or is one of few
 * large ones (flow_feed): read ahead on another CPU.  Cold, with hashers
 * on threads of their own, the reader reads for the page cache only (it
 * pre-reads, below), and each hasher reads its inputs again behind it.
 * So the storage sees one stream, and warm data is read on every CPU.
 * While the run is cold, the inputs a hasher holds are read on by it
 * wherever the page cache tells it holds the next chunk (a read that
 * misses would ask the storage out of order; a hole in an input held
 * otherwise is told to the storage at once, hasher.c), and an input is not
 * pre-read where the page cache holds it, up to its first chunk that it
 * lacks (a few pages evicted from a set in memory: 0.49-0.63 of the time,
 * docs/PERFORMANCE.md).
 */
#ifndef MD5SUM_FLOW_H
#define MD5SUM_FLOW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "result.h"

#define FLOW_INPUTS 256             /* opened and not yet emitted, at most */
#define CHUNK ((size_t)128 << 10)   /* bytes read at once: half the buffers of
                                     * 256 KiB, as fast or faster (media folder
                                     * 0.95, docs/PERFORMANCE.md) */
#define PRE_READ_MAX ((uintmax_t)256 << 20)   /* bytes pre-read that no hasher
                                               * has read again, at most
                                               * (flow_reader_next): the page
                                               * cache holds them */
#define AHEAD_WARM 32               /* chunks the reader reads ahead of a lone
                                     * warm input's hasher, half of them a
                                     * wake-up (8: 1.03 of the wall time of
                                     * a 1 GiB file, 16: 1.015) */
#define FEED_MIN ((off_t)16 << 20)  /* an input this large, warm, among few
                                     * (flow_feed), goes to the hasher the
                                     * reader feeds */
#define FEED_MAX 6                  /* such inputs fed at once, at most: the
                                     * reader's copy keeps up with their
                                     * lanes (8: eight files of 64 MiB 1.07x
                                     * the time, docs/PERFORMANCE.md) */
#define BALANCE_SLACK (64 * CHUNK)  /* bytes more than another hasher holds
                                     * that a warm hasher may take inputs on
                                     * with (a few ms of hashing): inputs
                                     * smaller than a lane's share never wait
                                     * for the other hashers */
#define COLD_SLACK ((uintmax_t)64 << 20)   /* cold, the hasher that joined
                                     * last takes inputs only once the others
                                     * hold this many bytes more: the reader
                                     * keeps a CPU, and the inputs it makes
                                     * ready one by one are hashed side by
                                     * side in the others' lanes, not each
                                     * in a lane of its own as it comes (the
                                     * media folder from a cold cache on 2
                                     * CPUs: 0.82 of the wall time); beyond
                                     * it, the reader finds inputs in memory
                                     * faster than they are hashed (a set
                                     * in memory with pages evicted: the
                                     * media folder with 30% of its files
                                     * holed took 1.12-1.15x the time with no
                                     * slack, docs/PERFORMANCE.md) */

/* Where the chunk read at OFF of an input of SIZE bytes ends. */
static inline off_t chunk_end(off_t off, off_t size)
{
    return size - off > (off_t)CHUNK ? off + (off_t)CHUNK : size;
}

/* A buffer of CHUNK bytes, a block more (source_read) and the padding;
 * once read by the reader, what it holds of an input. */
struct chunk {
    struct chunk *next;
    unsigned char *data;
    off_t off;
    size_t len;
    int final;   /* the input ends with it */
};

/* A hasher, as the flow knows it: where it sleeps, with room for inputs or
 * not, and the bytes of the inputs it holds. */
struct flow_sleeper {
    pthread_cond_t cv;
    int asleep, room;
    uintmax_t bytes;
    unsigned fed;                /* inputs the reader feeds it */
    struct flow_sleeper *next;   /* every hasher that joined */
};

/* What happened, for the tests of each mechanism. */
struct flow_stats {
    uintmax_t reader_bytes, hasher_bytes;  /* read by the reader, by hashers */
    uintmax_t pre_read_bytes;              /* pre-read by the reader */
    unsigned long later, cold, warm;       /* hashers' reads that found the
                                            * storage must be waited for;
                                            * runs turned cold, warm again */
    unsigned long opened, handed;          /* inputs hashers opened; handed
                                            * back to the caller unhashed */
    unsigned long early;                   /* inputs taken before older ones */
    unsigned long fed;                     /* inputs fed to one hasher */
    unsigned long wakes;                   /* sleeping hashers woken */
    uint64_t lane_hashed, lane_offered;    /* the lanes' blocks (lanes.h) */
    uint64_t lane_held_back;               /* rounds run narrower (lanes.h) */
};

/* N_BUFS buffers, RESERVE of them left by the reader for the hashers' own
 * reads (one a lane), and HEADROOM bytes of address space left beside them
 * for the rest of md5sum; all of the buffers in no more than ROOM bytes of
 * memory (a cgroup's limit: past it the process is killed, not refused).
 * 0, or -1 if the memory cannot be had. */
int flow_init(size_t n_bufs, size_t reserve, size_t headroom, uintmax_t room);
void flow_end(void);   /* no hasher runs, no input is live */
void flow_lock(void);
void flow_unlock(void);

/* ---- The reading stage, in the caller's thread (not locked) ---- */

/* Is there room for another input?  Add an opened regular file FD of SIZE
 * bytes, or (FD -1) NAME for its hasher to open: 1, its index in *IN; 0 if
 * the run is cold (the caller opens it, in order).  NAME is kept until the
 * result is taken.  EARLY: the page cache holds all of it, and it may be
 * taken before older inputs while the run is warm (flow_take_locked). */
int flow_room(void);
int flow_add(int fd, off_t size, const char *name, int early, size_t *in);

/* The reader's next read, in input order, if there is one to make now: the
 * input, where, and a buffer (C), or none (a pre-read, below).  FIRST: the
 * reader had not read that input before.  flow_reader_put then tells how it
 * went (LEN and FINAL set): FAILED with ERR, or not; CACHED, for a first
 * read: whether the input was in memory (-1: unknown; a few in a row end a
 * cold run).
 *
 * Pre-reads (flow_pre_read, for hashers on threads of their own, where
 * flow_init's ROOM leaves the page cache room for them): cold, the reader
 * reads the inputs in order, for the page cache only, up to PRE_READ_MAX
 * bytes that no hasher has read again; a hasher takes an input once all
 * of it is read so (a large one, once the pre-reader is part way through
 * it), and reads it again from memory, behind the pre-reader, as it does
 * an input it held when its read found the storage must be waited for.
 * The lanes then hash as on a warm run, not a few inputs at a time in our
 * buffers, and inputs read ahead of their turn (a few large files taken
 * together) are hashed side by side as the storage gives them. */
struct flow_read {
    size_t in;
    int fd, first;
    off_t off, size;
    struct chunk *c;
    size_t len;
    int final;
    int may_skip;    /* a pre-read of an input none of which was pre-read
                      * yet: it may be left out where the page cache holds
                      * the chunk (once the storage is read, the rest is
                      * read in order, as its read-ahead expects) */
    int in_memory;   /* set by the reader: a pre-read left out so */
};
void flow_pre_read(void);

/* For hashers on threads of their own: few large inputs (EARLY, FEED_MIN
 * bytes or more, no more than N of them in the flow, and N at most
 * FEED_MAX: as many as one hasher's lanes hash side by side, each at a
 * lane's pace) go, warm, to one hasher, and the reader reads them ahead
 * for it.  A lane's chain bounds them whatever the hasher: a second one
 * would only double the CPU time, and the copy is off the hashing CPU. */
void flow_feed(unsigned n);

/* The inputs after IN, up to MOST of them, of no more than MAX bytes each,
 * not given before, into INS, and their descriptors into FDS: how many, for
 * the storage to be asked for them, each then given back (flow_unpin).
 * None where the page cache may not hold what pre-reads would (flow_init's
 * ROOM).  An input given so and then found in memory by the reader does
 * not count towards the run turning warm. */
unsigned flow_ahead(size_t in, size_t *ins, int *fds, unsigned most, off_t max);
void flow_unpin(size_t in);
int flow_reader_next(struct flow_read *r);
void flow_reader_put(const struct flow_read *r, int failed, int err, int cached);

/* The oldest input, IN, back to the caller if no one has taken it or read
 * from it: 1, and it leaves the flow; or 0. */
int flow_take_back(size_t in);

/* The oldest input IN's result, if done: 1, copied into *R (not its name or
 * tag), and IN leaves the flow; 2 if its hasher handed it back unhashed, its
 * descriptor in *FD (-1: for the caller to open) now the caller's; 0 if not
 * done.  *FD and *SIZE are what the flow knows of it (-1: not opened). */
int flow_result(size_t in, struct result *r, int *fd, off_t *size);
/* Descriptors of inputs that hashers opened and have not closed. */
unsigned long flow_hasher_fds(void);
/* Input IN's bytes hashed so far (0 past the last), every input's in *ALL,
 * what happened in *S if not NULL. */
uintmax_t flow_hashed(size_t in, uintmax_t *all, struct flow_stats *s);

/* Wait, after waking a hasher for any input left, until something the
 * reader may wait for (an input ended, a read left to it, a chunk taken, a
 * buffer freed) happened since the last return: nothing is missed between.
 * DEADLINE: CLOCK_MONOTONIC, or NULL. */
void flow_wait(const struct timespec *deadline);

/* Stop the hashers: each returns at its next step. */
void flow_stop(void);

/* ---- The hashing stage (locked) ---- */

int flow_stopping_locked(void);
/* A hasher, sleeping on S, takes inputs, and balance holds against it from
 * now on (the first awake does not take every input before the others
 * start), until it leaves.  Not locked; flow_join: 0, or -1. */
int flow_join(struct flow_sleeper *s);
void flow_leave(struct flow_sleeper *s);
/* Take the next input for the hasher sleeping on S: 1, with its index,
 * descriptor and size (or, FD -1, the NAME to open first); 0: none, or
 * (warm) another hasher is to take it: the one fed few large inputs, if it
 * is one of them, or else one that holds fewer bytes; or (cold) S joined
 * last, and the others hold less than COLD_SLACK more.  The next is
 * the oldest not taken, or while warm, if that one is EARLY, the largest
 * EARLY one.  ALONE: the only one in the taker's lanes (if it is the last,
 * and more than a chunk, the reader reads it ahead). */
int flow_take_locked(size_t *in, int *fd, off_t *size, const char **name, int alone,
                     struct flow_sleeper *s);

/* An input as its hasher knows it, outside the lock; the flow hears of
 * what the flags say at its next lock, with PROGRESS the bytes hashed. */
struct flow_report {
    int fd;               /* -1: to be opened by name */
    off_t size, read_at;  /* its own reads go on from READ_AT */
    int ended, err;       /* they came to its end, or failed with ERR */
    int later;            /* the chunk at READ_AT was not in memory: the run
                           * turns cold, and the reader reads on from there
                           * (1: a read asked the storage for it; 2: the page
                           * cache told, nothing was asked) */
    uintmax_t hashed;
    struct result r;      /* its status, err, digest and hashed, once DONE */
    int opened, read;     /* opened by name (FD, SIZE); read by its hasher */
    int handed, done;     /* handed back, for the caller to hash in order (FD,
                           * or -1 for it to open); or over, FD closed */
};
void flow_tell_locked(size_t in, const struct flow_report *p, int progress);

/* Next for a lane with input IN: a chunk the reader read (*C), a read to
 * make at *OFF, the same read only if the page cache tells it holds the
 * chunk (PROBE: the run is cold, and a read that misses asks the storage
 * for it out of order), nothing yet (WAIT: for the reader, or, cold, for
 * the pre-reader to read past *OFF), or the end of a reading that failed
 * (*ERR). */
enum flow_next { FLOW_CHUNK, FLOW_READ, FLOW_PROBE, FLOW_WAIT, FLOW_FAILED };

/* Input IN's hasher is done with it and closes its descriptor: 1 if it may
 * now; 0 if the reader is using it (a read, flow_reader_next, or asking
 * ahead, flow_ahead), and closes it once done, a failure then making the
 * result a read error. */
int flow_closing_locked(size_t in);
enum flow_next flow_next_locked(size_t in, struct chunk **c, off_t *off, int *err);
/* A buffer for a hasher's own reads, or NULL; one back (OWN), or a chunk
 * the reader read, hashed. */
struct chunk *flow_buf_locked(void);
void flow_unbuf_locked(struct chunk *c, int own);

/* A hasher's lanes' counts since the last call (lanes_take_counts). */
void flow_lanes_locked(uint64_t hashed, uint64_t offered, uint64_t held_back);
/* Each hasher's share of the bytes not yet taken (sizes, or guesses). */
uintmax_t flow_queued_locked(void);

/* Sleep until woken: inputs to take (if ROOM), a chunk for one of its
 * inputs, the run turning warm, or the end. */
void flow_sleep_locked(struct flow_sleeper *s, int room);

#endif
