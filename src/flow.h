/* The inputs between the engine's stages: opened in order by the reading
 * stage (the caller's thread), read by it or by their hasher, hashed by the
 * hashers, and their results back to the caller, in order.  One lock guards
 * all of it, taken once per round of a hasher's lanes (not per chunk) and
 * once per input or chunk by the reader.
 *
 * Who reads an input is settled once: its hasher, with reads that never
 * wait (only what the page cache holds, in any order); or the reader, in
 * the order the inputs came, front to back, when the storage must be
 * waited for (a read that would wait makes the run "cold"), when the system
 * cannot read without waiting, or when the input is alone in its hasher's
 * lanes (read ahead on another CPU, so that the hasher only hashes).  So
 * the storage sees one stream of reads in input order, and warm data is
 * read on every CPU.
 */
#ifndef MD5SUM_FLOW_H
#define MD5SUM_FLOW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bufs.h"
#include "result.h"

/* Inputs opened and not yet emitted, at most. */
#define FLOW_INPUTS 256

/* A hasher, as the flow knows it: where it sleeps, and whether it has
 * room for more inputs then. */
struct flow_sleeper {
    pthread_cond_t cv;
    int asleep, room;
    struct flow_sleeper *next;
};

/* Set up the lock and the buffers: N_BUFS of them, of which the reader
 * leaves RESERVE for the hashers' own reads (one for each of their lanes:
 * those held count against it, so a lane can always have one).  Returns
 * 0, or -1 if the memory cannot be had (nothing is held then). */
int flow_init(size_t n_bufs, size_t reserve);
/* Free the buffers: no hasher runs and no input is live. */
void flow_end(void);

void flow_lock(void);
void flow_unlock(void);

/* ---- The reading stage (the caller's thread; the lock not held) ---- */

/* Is there room for another input? */
int flow_room(void);
/* Add an opened regular file FD of SIZE bytes; returns its index, which
 * grows by one with each input.  Wakes a hasher when enough wait. */
size_t flow_add(int fd, off_t size);
/* Wake hashers for the inputs added: before the caller waits. */
void flow_kick(void);

/* The reader's next read, in input order: an input it reads whose next
 * chunk fits the read-ahead, and a buffer.  Returns 0 if there is none now.
 * On 1, read *IN's chunk at *OFF into *C, then flow_reader_put.  *FIRST:
 * the reader has not read this input before (while the run is cold, it
 * then asks whether the rest is in memory: flow_reader_cached). */
int flow_reader_next(size_t *in, int *fd, off_t *off, off_t *size, struct chunk **c, int *first);
/* The chunk C of input IN has been read (its off, len and final set):
 * FAILED with errno ERR, or not. */
void flow_reader_put(size_t in, struct chunk *c, int failed, int err);
/* Input IN, if the reader will read it from its start (its descriptor is
 * then the reader's to use until it does): 1, with its descriptor and size. */
int flow_reader_peek(size_t in, int *fd, off_t *size);
/* Was the rest of an input the reader came to in memory?  A few in a row
 * end a cold run: the hashers read for themselves again. */
void flow_reader_cached(int yes);

/* Input IN's result, if it is done: copied to *R (but its name and tag),
 * and the input freed; IN must be the oldest live input.  Returns 1, or 0
 * if it is not done yet. */
int flow_result(size_t in, struct result *r);
/* Input IN's bytes hashed so far, and in *ALL those of every input since
 * the program started (progress reports).  IN may be past the last added. */
uintmax_t flow_hashed(size_t in, uintmax_t *all);

/* A count of what the reader may wait for: inputs ended, chunks taken from
 * the reader's, buffers freed, reads left to the reader.  Read it before
 * looking for work, and wait with it: no change is missed between. */
unsigned long flow_events(void);
/* Wait until the count is no longer SEEN, or until DEADLINE (NULL: no
 * limit; CLOCK_MONOTONIC). */
void flow_wait(unsigned long seen, const struct timespec *deadline);

/* What happened, for tests that check each mechanism works (engine.c
 * prints them under MD5SUM_ENGINE_STATS). */
struct flow_stats {
    uintmax_t reader_bytes, hasher_bytes;  /* read by the reader, by hashers */
    unsigned long later;                   /* hashers' reads that found the
                                            * storage must be waited for */
    unsigned long cold, warm;              /* runs turned cold, warm again */
};
void flow_get_stats(struct flow_stats *s);

/* Stop the hashers: they return at their next step; no input is added
 * after.  flow_stopping_locked tells them. */
void flow_stop(void);
int flow_stopping_locked(void);

/* ---- The hashing stage (the lock held) ---- */

/* Take the next input no hasher has, if any, for the hasher sleeping on
 * S: its index, descriptor and size.  ALONE: it would be the only input in
 * the taker's lanes (if no other waits, the reader then reads it ahead, on
 * another CPU).  Returns 1, or 0 if there is none. */
int flow_take_locked(size_t *in, int *fd, off_t *size, int alone, struct flow_sleeper *s);
/* Untaken inputs after this hasher took what it could: wake another. */
void flow_pass_on_locked(void);

/* Input IN's next chunk read by the reader, or NULL. */
struct chunk *flow_chunk_locked(size_t in);
/* May the hasher read input IN's next chunk itself, at *OFF?  Only while
 * the run is not cold; once it says no, the reader reads the input. */
int flow_may_read_locked(size_t in, off_t *off);
/* The hasher read input IN up to AT, or the reading ended (ENDED: at its
 * end, or with ERR); LATER: the chunk was not in memory (the run turns
 * cold, the reader goes on from AT). */
void flow_read_locked(size_t in, off_t at, int ended, int err, int later);
/* Has input IN's reading ended with nothing left to hash?  Its error, or
 * 0 at the end, in *ERR. */
int flow_ended_locked(size_t in, int *err);

/* A buffer for a hasher's own reads, or NULL; and back when it is done
 * with it (OWN), or a chunk the reader read, hashed (!OWN). */
struct chunk *flow_buf_locked(void);
void flow_unbuf_locked(struct chunk *c, int own);

/* Input IN is done (its descriptor closed): its result, and HASHED bytes. */
void flow_done_locked(size_t in, enum result_status status, int err,
                      const unsigned char digest[MD5_DIGEST_SIZE], uintmax_t hashed);
/* HASHED bytes of input IN hashed so far (only when progress is reported). */
void flow_progress_locked(size_t in, uintmax_t hashed);

/* Sleep until woken: new inputs it can take (if ROOM), a chunk read for
 * one of its inputs, the run turning warm, or the end. */
void flow_sleep_locked(struct flow_sleeper *s, int room);

#endif
