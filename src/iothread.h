/* One background thread that runs requests in the order they come: the
 * page faults and unmapping of file windows, kept off the hashing threads. */
#ifndef MD5SUM_IOTHREAD_H
#define MD5SUM_IOTHREAD_H

struct io_request {
    void (*run)(struct io_request *r);   /* runs on the I/O thread */
    struct io_request *next;             /* the thread's own */
};

/* Start the thread.  Returns 0, or -1 (no thread: the caller does its I/O
 * itself). */
int iothread_start(void);

/* Queue R; it runs after every request queued before it.  The thread must
 * be running. */
void iothread_submit(struct io_request *r);

/* Run what is queued, then end the thread. */
void iothread_stop(void);

#endif
