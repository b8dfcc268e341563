/* The block loop of every SIMD lane kernel, written once: a template by
 * inclusion.  A kernel file defines the pieces below for its instruction set,
 * then includes this header, which defines
 *     INLINE void run(struct md5_mb_lanes *l, size_t nblocks, const int SETS)
 * running SETS register sets of VEC_LANES lanes each.  Every caller passes a
 * constant SETS, so after inlining the per-set arrays below are registers.
 *
 * The includer provides:
 *   vec              a typedef: one vector of VEC_LANES 32-bit lanes;
 *   VEC_LANES        lanes per vector;
 *   MAX_SETS         the most register sets any caller passes as SETS;
 *   INLINE           run's storage class and attributes (static inline,
 *                    always_inline, and a target attribute where needed);
 *   EACH(X, ...)     X(j, ...) for each register set j < SETS, one statement;
 *   RUN_LOCALS       declarations that live for the whole call: where the
 *                    message words and the feed-forward copy are kept;
 *   LOAD(j, l), STORE(j, l)  set j's state in from, and out to, the lanes;
 *   FIRST_BLOCK(f)   anything to do once before the first block (a kernel
 *                    that transposes a block ahead does block 0 here), or
 *                    nothing;
 *   NEXT_BLOCK(j, f) at the start of each block: set j's words for this
 *                    block and its feed-forward copy of a..d; f.p[] steps by
 *                    f.step[] (see struct mb_frame);
 *   ADD_BACK(j, unused)  the feed-forward at the end of a block;
 *   BLOCK_LOCALS     declarations that open each block for the step macros
 *                    (a pointer into the round constants, a step counter),
 *                    or nothing;
 *   F, G, H, I       the round macros MD5_STEPS (md5_steps.h) takes, each
 *                    doing its step for every set.
 * Those macros may use run's names: l, f (struct mb_frame), SETS, n (the
 * blocks left, this one included), the arrays a, b, c, d (vec[MAX_SETS]),
 * and whatever RUN_LOCALS and BLOCK_LOCALS declare.
 *
 * A file may instantiate the template twice (mb_avx512.c: ymm, then zmm).
 * For the second it defines RUN, the function's name instead of run, and
 * VEC, the vector type instead of vec.  The header #undefs RUN, VEC and the
 * macros above but INLINE (the includer's own) when done, so each
 * instantiation defines its pieces afresh and the checks below see them.
 */
#ifndef VEC_LANES
# error "mb_loop.h: define VEC_LANES, the lanes per vector"
#endif
#ifndef MAX_SETS
# error "mb_loop.h: define MAX_SETS, the most register sets run is called with"
#endif
#ifndef INLINE
# error "mb_loop.h: define INLINE, run's storage class and attributes"
#endif
#ifndef EACH
# error "mb_loop.h: define EACH(X, ...), X for each register set"
#endif
#ifndef RUN_LOCALS
# error "mb_loop.h: define RUN_LOCALS, where the message words and the feed-forward live"
#endif
#ifndef LOAD
# error "mb_loop.h: define LOAD(j, l), set j's state from the lanes"
#endif
#ifndef STORE
# error "mb_loop.h: define STORE(j, l), set j's state to the lanes"
#endif
#ifndef FIRST_BLOCK
# error "mb_loop.h: define FIRST_BLOCK(f), the work before the first block (may be empty)"
#endif
#ifndef NEXT_BLOCK
# error "mb_loop.h: define NEXT_BLOCK(j, f), set j's next block and feed-forward copy"
#endif
#ifndef ADD_BACK
# error "mb_loop.h: define ADD_BACK(j, unused), set j's feed-forward"
#endif
#ifndef BLOCK_LOCALS
# error "mb_loop.h: define BLOCK_LOCALS, the step macros' per-block declarations (may be empty)"
#endif
#if !defined(F) || !defined(G) || !defined(H) || !defined(I)
# error "mb_loop.h: define the round macros F, G, H and I"
#endif

#ifndef RUN
# define RUN run
#endif
#ifndef VEC
# define VEC vec
#endif

#include "mb_impl.h"
#include "md5_steps.h"

INLINE void RUN(struct md5_mb_lanes *l, size_t nblocks, const int SETS)
{
    struct mb_frame f;
    VEC a[MAX_SETS], b[MAX_SETS], c[MAX_SETS], d[MAX_SETS];
    RUN_LOCALS
    size_t n;

    if (nblocks == 0)
        return;
    mb_begin(&f, l, VEC_LANES * (unsigned)SETS);
    EACH(LOAD, l);
    FIRST_BLOCK(f);
    for (n = nblocks; n > 0; n--) {
        BLOCK_LOCALS
        EACH(NEXT_BLOCK, f);
        MD5_STEPS(F, G, H, I, I)
        EACH(ADD_BACK, 0);
    }
    EACH(STORE, l);
    mb_end(&f, l, VEC_LANES * (unsigned)SETS, nblocks);
}

#undef RUN
#undef VEC
#undef VEC_LANES
#undef MAX_SETS
#undef EACH
#undef RUN_LOCALS
#undef LOAD
#undef STORE
#undef FIRST_BLOCK
#undef NEXT_BLOCK
#undef ADD_BACK
#undef BLOCK_LOCALS
#undef F
#undef G
#undef H
#undef I
