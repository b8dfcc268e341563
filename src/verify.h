/* Compile-time checks for limits that must agree, in C99 (_Static_assert is
 * C11): an array of negative size fails to compile, as with gnulib's verify. */
#ifndef MD5SUM_VERIFY_H
#define MD5SUM_VERIFY_H

/* NAME must be unique in its file; it names what would be broken. */
#define VERIFY(name, cond) typedef char verify_##name[(cond) ? 1 : -1]

#endif
