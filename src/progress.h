/* --progress: one line on standard error, only when it is a terminal,
 * redrawn at most ten times a second once the run has lasted half a second:
 * the input being hashed (quoted as in diagnostics), its bytes done and
 * size, the rate and the time left, and with several inputs how many are
 * done and the bytes done over all those known so far.  The line is erased
 * before anything else is written to that terminal, at exit, and when a
 * signal (SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT) ends the run, so what
 * scrolls is what would have scrolled without it. */
#ifndef MD5SUM_PROGRESS_H
#define MD5SUM_PROGRESS_H

/* Show progress from now on, if standard error is a terminal (otherwise do
 * nothing at all).  Call once, before the engine starts. */
void progress_start(void);

#endif
