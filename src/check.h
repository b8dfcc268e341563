/* --check: verify checksum lists. */
#ifndef MD5SUM_CHECK_H
#define MD5SUM_CHECK_H

struct check_opts {
    int status_only;      /* --status */
    int warn;             /* -w, --warn */
    int quiet;            /* --quiet */
    int strict;           /* --strict */
    int ignore_missing;   /* --ignore-missing */
};

/* Verify every line of the list NAME ("-" is standard input), printing what
 * GNU prints.  Returns 1 if the list succeeded, 0 otherwise. */
int check_list(const char *name, const struct check_opts *opts);

#endif
