/* AAPCS64 probe for the AArch64 block function (tests/core/abi.c).
 *
 * unsigned long abi_probe_aarch64(fn, state, p, nblocks)
 *   Puts a distinct canary in every register a callee must preserve
 *   (x19-x29, d8-d15) and in x18, calls fn(state, p, nblocks) and returns a
 *   mask of what changed: bits 0-9 x19-x28, 10 x29, 11-18 d8-d15, 19 sp,
 *   20 x30 (not the return address), 21 x18.  A function that breaks sp or
 *   x30 is caught only if it still returns here.
 *
 * void abi_clobber_aarch64(state, p, nblocks)
 *   A deliberately bad callee (it zeroes x19 and d15), so the tests can show
 *   that the probe does catch a clobber.
 *
 * The probe saves and restores all of those registers for its own caller.
 * Empty on other targets, like the block function.
 */
#if defined(__aarch64__) && !defined(__AARCH64EB__)

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
# define BTI_C hint #34
#else
# define BTI_C
#endif

/* mask |= (reg != canary at offset off) << bit; x10 = canary table */
.macro check_x reg, off, bit
        ldr     x11, [x10, #\off]
        cmp     \reg, x11
        cset    x12, ne
        orr     x0, x0, x12, lsl #\bit
.endm
.macro check_d reg, off, bit
        fmov    x13, \reg
        check_x x13, \off, \bit
.endm

        .text
        .globl  abi_probe_aarch64
        .type   abi_probe_aarch64, %function
        .p2align 2
abi_probe_aarch64:
        BTI_C
        stp     x29, x30, [sp, #-176]!
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        stp     x21, x22, [sp, #32]
        stp     x23, x24, [sp, #48]
        stp     x25, x26, [sp, #64]
        stp     x27, x28, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        str     x18, [sp, #160]
        /* Every register is a canary during the call, so the expected sp
         * waits in memory (the tests are single-threaded). */
        mov     x11, sp
        adrp    x10, .Lsaved_sp
        str     x11, [x10, :lo12:.Lsaved_sp]

        mov     x9, x0
        mov     x0, x1
        mov     x1, x2
        mov     x2, x3
        adrp    x10, .Lcanary
        add     x10, x10, :lo12:.Lcanary
        ldp     x19, x20, [x10]
        ldp     x21, x22, [x10, #16]
        ldp     x23, x24, [x10, #32]
        ldp     x25, x26, [x10, #48]
        ldp     x27, x28, [x10, #64]
        ldp     x29, x18, [x10, #80]
        ldp     d8, d9, [x10, #96]
        ldp     d10, d11, [x10, #112]
        ldp     d12, d13, [x10, #128]
        ldp     d14, d15, [x10, #144]
        blr     x9
1:
        adrp    x10, .Lcanary
        add     x10, x10, :lo12:.Lcanary
        mov     x0, #0
        check_x x19, 0, 0
        check_x x20, 8, 1
        check_x x21, 16, 2
        check_x x22, 24, 3
        check_x x23, 32, 4
        check_x x24, 40, 5
        check_x x25, 48, 6
        check_x x26, 56, 7
        check_x x27, 64, 8
        check_x x28, 72, 9
        check_x x29, 80, 10
        check_d d8, 96, 11
        check_d d9, 104, 12
        check_d d10, 112, 13
        check_d d11, 120, 14
        check_d d12, 128, 15
        check_d d13, 136, 16
        check_d d14, 144, 17
        check_d d15, 152, 18
        check_x x18, 88, 21
        adr     x11, 1b
        cmp     x30, x11
        cset    x12, ne
        orr     x0, x0, x12, lsl #20
        adrp    x11, .Lsaved_sp
        ldr     x11, [x11, :lo12:.Lsaved_sp]
        mov     x13, sp
        cmp     x13, x11
        cset    x12, ne
        orr     x0, x0, x12, lsl #19
        mov     sp, x11                 // recover, so the epilogue works

        ldr     x18, [sp, #160]
        ldp     d14, d15, [sp, #144]
        ldp     d12, d13, [sp, #128]
        ldp     d10, d11, [sp, #112]
        ldp     d8, d9, [sp, #96]
        ldp     x27, x28, [sp, #80]
        ldp     x25, x26, [sp, #64]
        ldp     x23, x24, [sp, #48]
        ldp     x21, x22, [sp, #32]
        ldp     x19, x20, [sp, #16]
        ldp     x29, x30, [sp], #176
        ret
        .size   abi_probe_aarch64, . - abi_probe_aarch64

        .globl  abi_clobber_aarch64
        .type   abi_clobber_aarch64, %function
        .p2align 2
abi_clobber_aarch64:
        BTI_C
        mov     x19, #0
        fmov    d15, xzr
        ret
        .size   abi_clobber_aarch64, . - abi_clobber_aarch64

        .section .rodata
        .p2align 3
/* x19-x28, x29, x18, d8-d15: distinct, with both 32-bit halves nonzero so a
 * 32-bit write to the register also shows. */
.Lcanary:
        .irp    n, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 18
        .quad   0xc0de005a5a5a5a00 + (\n << 40) + \n
        .endr
        .irp    n, 8, 9, 10, 11, 12, 13, 14, 15
        .quad   0xd0d000a5a5a5a500 + (\n << 40) + \n
        .endr

        .bss
        .p2align 3
.Lsaved_sp:
        .skip   8

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
