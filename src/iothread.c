#include "iothread.h"

#include <pthread.h>
#include <stddef.h>

#include "threads.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct io_request *first, *last;
static int stopping;
static pthread_t thread;

static void *io_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        struct io_request *r = first;

        if (!r) {
            if (stopping)
                break;
            pthread_cond_wait(&wake, &lock);
            continue;
        }
        first = r->next;
        if (!first)
            last = NULL;
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
    return thread_start(&thread, io_main, NULL);
}

void iothread_submit(struct io_request *r)
{
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

void iothread_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
}
