/* A set of SIMD lanes shared by many messages, each fed in chunks.
 *
 * A task (a message being hashed) sits in one lane from start to end.  It
 * runs through a chunk of whole 64-byte blocks at a time: a whole small file
 * with its padding, or a window of a large one.  When a chunk is used up the
 * task's owner feeds it the next, takes it out, or leaves it waiting (a task
 * with no blocks idles in its lane while other lanes run).  Each round runs
 * the best kernel for the number of lanes with blocks (compress/mb.h), or a
 * narrower one where the longest message bounds the rounds (lanes_run), for
 * as many blocks as the shortest of their chunks: kernels are called with
 * every running lane busy.
 */
#ifndef MD5SUM_LANES_H
#define MD5SUM_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "compress/mb.h"

struct lane_task {
    const unsigned char *p;   /* the next block of the current chunk */
    size_t blocks;            /* whole blocks left in it; 0: waiting */
    uint64_t after;           /* blocks of the message after this chunk, as
                               * far as its owner knows (lanes_run) */
    unsigned lane;            /* lanes.c's own */
};

struct lanes {
    struct md5_mb_lanes l;
    struct lane_task *task[MD5_MB_MAX_LANES];
    unsigned used;            /* lanes 0 .. used-1 hold tasks */
    unsigned cap;             /* at most this many */
    uint64_t hashed, offered; /* blocks hashed, and lane-blocks the kernels
                               * ran (their occupancy: hashed / offered) */
    uint64_t queued;          /* blocks of messages not yet in a lane that
                               * these lanes will hash, as far as known */
    uint64_t held_back;       /* rounds run narrower than the busy lanes
                               * (lanes_run), for the tests */
};

/* An empty set of at most CAP lanes (clamped to the widest kernel's). */
void lanes_init(struct lanes *s, unsigned cap);

/* How many messages, up to MOST, lanes hash side by side: for each count
 * up to it, the kernel md5_mb_pick gives has a lane for every message. */
unsigned lanes_side_by_side(unsigned most);

/* Lanes still free. */
unsigned lanes_free(const struct lanes *s);

/* Put T, whose chaining state is STATE, in a free lane, waiting (no
 * blocks) until it is fed. */
void lanes_add(struct lanes *s, struct lane_task *t, const uint32_t state[4]);

/* Give T, in a lane with its chunk used up, the BLOCKS blocks at P (0: it
 * waits), AFTER blocks of its message to come after them. */
void lanes_feed(struct lanes *s, struct lane_task *t, const unsigned char *p, size_t blocks,
                uint64_t after);

/* QUEUED blocks of messages not yet in a lane are for these lanes. */
void lanes_expect(struct lanes *s, uint64_t queued);

/* The counts since the last call (struct lanes), then zeroed. */
void lanes_take_counts(struct lanes *s, uint64_t *hashed, uint64_t *offered, uint64_t *held_back);

/* Take T out of its lane: its chaining state, T->p and T->blocks as of the
 * last completed round. */
void lanes_remove(struct lanes *s, struct lane_task *t, uint32_t state[4]);

/* One round.  Returns how many tasks ran out of blocks, listed in ENDED.
 * The kernel is the best for the busy lanes (md5_mb_pick), or a narrower
 * one of its set that runs the busy lanes with the most blocks left, when
 * the longest message alone takes as many rounds as all of them at that
 * width would (the whole of every message in a lane, with AFTER, and
 * QUEUED): the rounds are then as many either way, and a narrower kernel's
 * are never longer.  Nothing recovers from a fault inside a round: chunks
 * must be memory that cannot fault (the engine's read buffers, never a
 * mapped file). */
unsigned lanes_run(struct lanes *s, struct lane_task *ended[MD5_MB_MAX_LANES]);

#endif
