/* A hasher: takes inputs from the flow in order, one to a SIMD lane, feeds
 * each lane its input's chunks (read ahead by the reader, or read here from
 * the page cache), runs the lanes, and hands back each input's result.  It
 * runs on a thread of its own (hasher_main), or, with one job, in the
 * caller's thread a step at a time (hasher_step). */
#ifndef MD5SUM_HASHER_H
#define MD5SUM_HASHER_H

struct hasher;

/* A hasher with up to LANES lanes (at least 1; at most the widest
 * kernel's), or NULL if its memory cannot be had.  PROGRESS: tell the flow
 * the bytes hashed at each chunk's end. */
struct hasher *hasher_new(unsigned lanes, int progress);
void hasher_free(struct hasher *h);

/* One step: take inputs, feed and run the lanes once, hand back what
 * ended.  Returns 1 if it did something, 0 if it could not (every lane
 * waits for the reader, and no input is there to take), -1 once the flow
 * is stopping.  Never sleeps. */
int hasher_step(struct hasher *h);

/* A thread's body (ARG is a hasher): steps, sleeping on the flow when
 * idle, until it stops. */
void *hasher_main(void *arg);

#endif
