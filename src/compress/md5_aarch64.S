/* AArch64 MD5 block function (body to come). */
#if defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
