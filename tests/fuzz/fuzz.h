/* What the libFuzzer targets share: the entry point's prototype and REQUIRE,
 * which aborts (a finding) with the file, line and condition that failed. */
#ifndef MD5SUM_FUZZ_H
#define MD5SUM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);         \
            abort();                                                           \
        }                                                                      \
    } while (0)

#endif
