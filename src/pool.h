/* The workers (worker.h) that hash one sequence of jobs: on threads of
 * their own, with an I/O thread reading ahead for them; or, with one job at
 * a time (or no thread able to start), a single worker that the submitter
 * runs a step at a time; or, with no memory even for that, none.  The
 * budgets (arena bytes, large files read at once, descriptors) are shared
 * out among them.
 */
#ifndef MD5SUM_POOL_H
#define MD5SUM_POOL_H

#include "queue.h"
#include "worker.h"

/* Claimed inputs each of N workers, and the queue's deferred claims, may
 * hold: each may hold a descriptor, and all of them must fit under the
 * limit, with room to spare. */
unsigned pool_tasks_each(unsigned n);

/* Start the workers for Q: N on threads if N > 1 and they can start, else
 * the submitter's own.  Tells Q how many there are. */
void pool_start(struct queue *q, unsigned n);

/* How many workers run on threads of their own. */
unsigned pool_threads(void);

/* The worker the submitter runs, or NULL. */
struct worker *pool_inline(void);

/* Wait for the threads to end (the queue is closing), and free every
 * worker. */
void pool_stop(void);

#endif
