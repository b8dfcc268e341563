/* AArch64 MD5 block function.
 *
 * void md5_compress_aarch64(uint32_t state[4], const unsigned char *p, size_t nblocks);
 *
 * Same contract as md5_compress_portable: any alignment of P, NBLOCKS may be
 * 0.  MD5 is bound by the latency of its chain: each step
 * a = b + rotl(a + f(b,c,d) + M[k] + K[i], s) can start only when b is known.
 * Everything that does not depend on b is issued early, so the chain holds
 * 5, 4, 4 and 5 dependent one-cycle ops per step in rounds F, G, H and I:
 * 288 cycles per block (4.5 cycles/byte) when ALU latency is 1.
 *
 * The instruction count matters on narrow cores, so words travel in pairs:
 * one ldp of two x registers brings four 32-bit words, and a word in the high
 * half is added with "add x, x, pair, lsr #32".  Those 64-bit adds leave junk
 * in bits 32-63 of the destination, which is harmless because every other
 * consumer (logic ops, ror, the final stp) reads the low 32 bits only.
 * Per block: 4 ldp for the message, 16 for the constants, 8 ops per F and
 * G step, 7 per H and I step (481 in all: step 64 has one more), 3 state
 * adds and the loop control: 506 instructions.
 *
 * The body assembles only for little-endian AArch64; elsewhere (x86 hosts
 * build every backend file) the object is empty.
 */

#if defined(__aarch64__) && !defined(__AARCH64EB__)

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
# define BTI_C hint #34             /* landing pad for indirect calls */
# define MD5_GNU_PROPERTY_BTI 1
#else
# define BTI_C
# define MD5_GNU_PROPERTY_BTI 0
#endif
/* The function never saves or alters x30, so it is compatible with
 * return-address signing as it stands; it only has to say so. */
#if defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT
# define MD5_GNU_PROPERTY_PAC 2
#else
# define MD5_GNU_PROPERTY_PAC 0
#endif
#define MD5_GNU_PROPERTY_FEATURES (MD5_GNU_PROPERTY_BTI | MD5_GNU_PROPERTY_PAC)

#include "md5_steps.h"   /* the constants, at the end */

/* Register map.  x18 is the platform register and is never used; x19-x26 are
 * callee-saved and restored on return. */
state   .req x0         // uint32_t state[4]
msg     .req x1         // next 64-byte block
nblk    .req x2         // blocks left
ktab    .req x3         // the 64 round constants

/* Working variables: written by the steps of one block. */
wa      .req w4
xa      .req x4
wb      .req w5
xb      .req x5
wc      .req w6
xc      .req x6
wd      .req w7
xd      .req x7

/* Chaining values: the state between blocks.  Steps 1-4 read them directly,
 * so no copy into the working registers is needed at the top of a block. */
wa0     .req w8
xa0     .req x8
wb0     .req w9
xb0     .req x9
wc0     .req w10
xc0     .req x10
wd0     .req w11
xd0     .req x11

/* Message words, two per register: word 2j in the low half, 2j+1 in the
 * high half, which is how ldp of x registers reads a little-endian block. */
m0      .req x12
m1      .req x12
m2      .req x13
m3      .req x13
m4      .req x14
m5      .req x14
m6      .req x15
m7      .req x15
m8      .req x16
m9      .req x16
m10     .req x17
m11     .req x17
m12     .req x19
m13     .req x19
m14     .req x20
m15     .req x20

/* Round constants, four per group of four steps, in two sets so the next
 * group loads while this one runs: K[4g..4g+1] in ka0/kb0, K[4g+2..4g+3] in
 * ka1/kb1, set a for even groups g, set b for odd ones. */
ka0     .req x21
ka1     .req x22
kb0     .req x23
kb1     .req x24

/* Temporaries: wt holds f(b,c,d) or a part of it; in round H, wu carries
 * c ^ d from one step to the next. */
wt      .req w25
wu      .req w26

/* dst = in + the 32-bit word in the low (hi = 0) or high half of pair. */
.macro add_half dst, in, pair, hi
.if \hi
        add     \dst, \in, \pair, lsr #32
.else
        add     \dst, \in, \pair
.endif
.endm

/* dst = in + K[i], i = 1..64 as in RFC 1321. */
.macro add_k dst, in, i
.if ((\i-1) & 4) == 0
 .if ((\i-1) & 2) == 0
        add_half \dst, \in, ka0, ((\i-1)&1)
 .else
        add_half \dst, \in, ka1, ((\i-1)&1)
 .endif
.else
 .if ((\i-1) & 2) == 0
        add_half \dst, \in, kb0, ((\i-1)&1)
 .else
        add_half \dst, \in, kb1, ((\i-1)&1)
 .endif
.endif
.endm

/* The b-independent start of step i: a += K[i] + M[k].  Steps 1-4 take a's
 * old value from the chaining register.  The first step of each group of four
 * also loads the next group's constants into the other set. */
.macro sum_in a, k, i
.if ((\i-1) & 3) == 0 && \i < 61
 .if ((\i-1) & 4) == 0
        ldp     kb0, kb1, [ktab, #4*(\i+3)]
 .else
        ldp     ka0, ka1, [ktab, #4*(\i+3)]
 .endif
.endif
.if \i <= 4
        add_k   x\a, x\a\()0, \i
.else
        add_k   x\a, x\a, \i
.endif
        add_half x\a, x\a, m\k, (\k&1)
.endm

/* The common tail of every step: a = b + rotl(a + f, s), with f in \f. */
.macro rot_add a, b, s, f
        add     w\a, w\a, \f
        ror     w\a, w\a, #(32-\s)
        add     w\a, w\a, w\b
.endm

/* Round 1: f = d ^ (b & (c ^ d)); c ^ d is ready before b.
 * Chain: and, eor, add, ror, add. */
.macro F a, b, c, d, k, s, i
        sum_in  \a, \k, \i
        eor     wt, w\c, w\d
        and     wt, wt, w\b
        eor     wt, wt, w\d
        rot_add \a, \b, \s, wt
.endm

/* Round 2: f = (b & d) | (c & ~d).  The halves share no bits, so the OR is
 * an ADD, and c & ~d joins the early sum.  Chain: and, add, ror, add. */
.macro G a, b, c, d, k, s, i
        sum_in  \a, \k, \i
        bic     wt, w\c, w\d
        add     w\a, w\a, wt
        and     wt, w\b, w\d
        rot_add \a, \b, \s, wt
.endm

/* Round 3: f = b ^ c ^ d.  On entry wu must hold c ^ d: the first H step
 * (i = 33) computes it; after that, the previous step left its f = b^c^d in
 * wu, and f ^ (its d) is exactly this step's c ^ d.  Its d is this step's a,
 * so that eor comes before a is overwritten.  With three-operand ops this
 * costs the same as a fresh c ^ d (the saving is a mov on two-operand ISAs);
 * it stays off the chain.  Chain: eor, add, ror, add. */
.macro H a, b, c, d, k, s, i
.if \i == 33
        eor     wu, w\c, w\d
.else
        eor     wu, wu, w\a
.endif
        sum_in  \a, \k, \i
        eor     wu, wu, w\b
        rot_add \a, \b, \s, wu
.endm

/* Round 4: f = c ^ (b | ~d), with ORN.  Chain: orn, eor, add, ror, add.
 * Step 64 adds its result straight into the chaining value b0 (b0 + c is
 * summed early), so the block ends with no extra add on the chain. */
.macro I a, b, c, d, k, s, i
        sum_in  \a, \k, \i
.if \i == 64
        add     w\a\()0, w\a\()0, w\b
.endif
        orn     wt, w\b, w\d
        eor     wt, wt, w\c
.if \i == 64
        add     w\a, w\a, wt
        ror     w\a, w\a, #(32-\s)
        add     w\a\()0, w\a\()0, w\a
.else
        rot_add \a, \b, \s, wt
.endif
.endm

        .text
        .globl  md5_compress_aarch64
        .type   md5_compress_aarch64, %function
        .p2align 4
md5_compress_aarch64:
        BTI_C
        cbz     nblk, 2f
        stp     x19, x20, [sp, #-64]!
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        adrp    ktab, .Lmd5_k
        add     ktab, ktab, :lo12:.Lmd5_k
        ldp     wa0, wb0, [state]
        ldp     wc0, wd0, [state, #8]

1:      ldp     ka0, ka1, [ktab]
        /* Unaligned ldp is fine for normal memory on AArch64 Linux. */
        ldp     m0, m2, [msg], #64
        ldp     m4, m6, [msg, #-48]
        ldp     m8, m10, [msg, #-32]
        ldp     m12, m14, [msg, #-16]
        subs    nblk, nblk, #1

        /* [abcd k s i] as in RFC 1321; steps 1-4 read the chaining values. */
        F       a, b0, c0, d0,  0,  7,  1
        F       d, a, b0, c0,   1, 12,  2
        F       c, d, a, b0,    2, 17,  3
        F       b, c, d, a,     3, 22,  4
        F       a, b, c, d,     4,  7,  5
        F       d, a, b, c,     5, 12,  6
        F       c, d, a, b,     6, 17,  7
        F       b, c, d, a,     7, 22,  8
        F       a, b, c, d,     8,  7,  9
        F       d, a, b, c,     9, 12, 10
        F       c, d, a, b,    10, 17, 11
        F       b, c, d, a,    11, 22, 12
        F       a, b, c, d,    12,  7, 13
        F       d, a, b, c,    13, 12, 14
        F       c, d, a, b,    14, 17, 15
        F       b, c, d, a,    15, 22, 16

        G       a, b, c, d,     1,  5, 17
        G       d, a, b, c,     6,  9, 18
        G       c, d, a, b,    11, 14, 19
        G       b, c, d, a,     0, 20, 20
        G       a, b, c, d,     5,  5, 21
        G       d, a, b, c,    10,  9, 22
        G       c, d, a, b,    15, 14, 23
        G       b, c, d, a,     4, 20, 24
        G       a, b, c, d,     9,  5, 25
        G       d, a, b, c,    14,  9, 26
        G       c, d, a, b,     3, 14, 27
        G       b, c, d, a,     8, 20, 28
        G       a, b, c, d,    13,  5, 29
        G       d, a, b, c,     2,  9, 30
        G       c, d, a, b,     7, 14, 31
        G       b, c, d, a,    12, 20, 32

        H       a, b, c, d,     5,  4, 33
        H       d, a, b, c,     8, 11, 34
        H       c, d, a, b,    11, 16, 35
        H       b, c, d, a,    14, 23, 36
        H       a, b, c, d,     1,  4, 37
        H       d, a, b, c,     4, 11, 38
        H       c, d, a, b,     7, 16, 39
        H       b, c, d, a,    10, 23, 40
        H       a, b, c, d,    13,  4, 41
        H       d, a, b, c,     0, 11, 42
        H       c, d, a, b,     3, 16, 43
        H       b, c, d, a,     6, 23, 44
        H       a, b, c, d,     9,  4, 45
        H       d, a, b, c,    12, 11, 46
        H       c, d, a, b,    15, 16, 47
        H       b, c, d, a,     2, 23, 48

        I       a, b, c, d,     0,  6, 49
        I       d, a, b, c,     7, 10, 50
        I       c, d, a, b,    14, 15, 51
        I       b, c, d, a,     5, 21, 52
        I       a, b, c, d,    12,  6, 53
        I       d, a, b, c,     3, 10, 54
        I       c, d, a, b,    10, 15, 55
        I       b, c, d, a,     1, 21, 56
        I       a, b, c, d,     8,  6, 57
        I       d, a, b, c,    15, 10, 58
        I       c, d, a, b,     6, 15, 59
        I       b, c, d, a,    13, 21, 60
        I       a, b, c, d,     4,  6, 61
        I       d, a, b, c,    11, 10, 62
        I       c, d, a, b,     2, 15, 63
        I       b, c, d, a,     9, 21, 64

        /* b0 was updated by step 64. */
        add     wa0, wa0, wa
        add     wc0, wc0, wc
        add     wd0, wd0, wd
        b.ne    1b

        stp     wa0, wb0, [state]
        stp     wc0, wd0, [state, #8]
        ldp     x25, x26, [sp, #48]
        ldp     x23, x24, [sp, #32]
        ldp     x21, x22, [sp, #16]
        ldp     x19, x20, [sp], #64
2:      ret
        .size   md5_compress_aarch64, . - md5_compress_aarch64

/* K[i] = floor(2^32 * abs(sin(i))), i = 1..64, in step order: 16 bytes,
 * one ldp of two x registers, for each group of four steps.  The list is
 * md5_steps.h's. */
#define MD5_K_WORD(a, b, c, d, k, K, s) .word K;
        .section .rodata
        .p2align 4
.Lmd5_k:
        MD5_STEPS(MD5_K_WORD, MD5_K_WORD, MD5_K_WORD, MD5_K_WORD, MD5_K_WORD)

#if MD5_GNU_PROPERTY_FEATURES != 0
/* Tell the linker this object is BTI / PAC clean, or it drops the marking
 * for the whole program. */
        .pushsection .note.gnu.property, "a"
        .p2align 3
        .word   4                       // name size
        .word   16                      // descriptor size
        .word   5                       // NT_GNU_PROPERTY_TYPE_0
        .asciz  "GNU"
        .word   0xc0000000              // GNU_PROPERTY_AARCH64_FEATURE_1_AND
        .word   4                       // property data size
        .word   MD5_GNU_PROPERTY_FEATURES
        .word   0                       // padding to 8 bytes
        .popsection
#endif

#endif /* little-endian AArch64 */

/* Outside the guard: even the empty x86 object must say its stack is not
 * executable, or the linker warns. */
#if defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
