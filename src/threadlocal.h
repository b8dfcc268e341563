/* A variable of each thread's own (C11's _Thread_local, or the GNU spelling
 * that gcc and clang accept in C99). */
#ifndef MD5SUM_THREADLOCAL_H
#define MD5SUM_THREADLOCAL_H

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
# define THREAD_LOCAL _Thread_local
#elif defined(__GNUC__) || defined(__clang__)
# define THREAD_LOCAL __thread
#else
# error "a thread-local storage class is needed (C11 or GNU C)"
#endif

#endif
