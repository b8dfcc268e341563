/* What a worker can start now (its budget), and which claims fit in it.
 *
 * A small file is read whole into the worker's arena and needs room there;
 * a larger one is a stream and needs one of the worker's stream buffers,
 * within its share of the streams.  Claims are offered one at a time
 * (queue_fits), and each one that fits is taken out of the budget. */
#ifndef MD5SUM_BUDGET_H
#define MD5SUM_BUDGET_H

#include <stddef.h>
#include <sys/types.h>

#include "queue.h"

struct budget {
    unsigned tasks;      /* free tasks */
    unsigned streams;    /* streams it may start: free buffers, within its share */
    size_t arena;        /* arena bytes free */
    off_t small_max;     /* the largest small file */
};

/* The largest small file for an arena of CAP bytes and LANES lanes: a file
 * for every lane fits, so the lanes fill.  -1 if not even an empty file
 * fits (every file is then a stream). */
off_t budget_small_max(size_t cap, unsigned lanes);

/* Is a file of SIZE read whole (rather than streamed) under B? */
int budget_small(const struct budget *b, off_t size);

/* queue_fits, ARG being a struct budget: does claim C fit, and if so,
 * spend what it needs. */
int budget_fits(const struct claim *c, void *arg);

#endif
