#include "iothread.h"

#include <pthread.h>
#include <stddef.h>

#include "threads.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct io_request *first, *last;
static int running, stopping;
static pthread_t thread;

/* The oldest request, taken off the queue (with the lock held), or NULL. */
static struct io_request *take_locked(void)
{
    struct io_request *r = first;

    if (r) {
        first = r->next;
        if (!first)
            last = NULL;
    }
    return r;
}

static void *io_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        struct io_request *r = take_locked();

        if (!r) {
            if (stopping)
                break;
            pthread_cond_wait(&wake, &lock);
            continue;
        }
        pthread_mutex_unlock(&lock);
        r->run(r);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int iothread_start(void)
{
    stopping = 0;
    running = thread_start(&thread, io_main, NULL) == 0;
    return running ? 0 : -1;
}

void iothread_submit(struct io_request *r)
{
    if (!running) {
        r->run(r);
        return;
    }
    r->next = NULL;
    pthread_mutex_lock(&lock);
    if (last)
        last->next = r;
    else
        first = r;
    last = r;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
}

int iothread_help(void)
{
    struct io_request *r;

    pthread_mutex_lock(&lock);
    r = take_locked();
    pthread_mutex_unlock(&lock);
    if (r)
        r->run(r);
    return r != NULL;
}

void iothread_stop(void)
{
    if (!running)
        return;
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = 0;
}
