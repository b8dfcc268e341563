/* Read requests run in the order they come: by a background thread when
 * there is one, or by a hashing thread with nothing better to do (so the
 * reading never waits on one thread alone), or at once by the submitter
 * when there is no thread. */
#ifndef MD5SUM_IOTHREAD_H
#define MD5SUM_IOTHREAD_H

struct io_request {
    void (*run)(struct io_request *r);   /* runs on whichever thread takes it */
    struct io_request *next;             /* the queue's own */
};

/* Start the background thread.  Returns 0, or -1 (none: requests then run
 * at once in the thread that submits them). */
int iothread_start(void);

/* Queue R, or run it now if no thread was started. */
void iothread_submit(struct io_request *r);

/* Run the oldest queued request in the calling thread.  Returns 1 if there
 * was one, 0 if the queue was empty. */
int iothread_help(void);

/* Run what is queued, then end the thread. */
void iothread_stop(void);

#endif
