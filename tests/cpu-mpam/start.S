// SPDX-License-Identifier: GPL-2.0-or-later
// Bare-metal entry for the CPU MPAM test: runs at the reset EL (EL1, EL2 or
// EL3), sets up stacks and exception vectors, calls main(), exits QEMU.

    .section .text.start, "ax"
    .global _start
_start:
    ldr     x0, =stack_top
    mov     sp, x0
    adr     x0, vectors
    mrs     x1, CurrentEL
    cmp     x1, #(3 << 2)
    b.eq    1f
    cmp     x1, #(2 << 2)
    b.eq    2f
    msr     vbar_el1, x0
    b       4f
1:  msr     vbar_el3, x0
    b       3f
2:  msr     vbar_el2, x0
3:  // an EL1 stack and vectors for call_el1()
    ldr     x1, =el1_stack_top
    msr     sp_el1, x1
    msr     vbar_el1, x0
4:  isb
    bl      main
    // Semihosting SYS_EXIT (ADP_Stopped_ApplicationExit): works at every EL,
    // unlike QEMU's PSCI, which virt,secure=on without firmware lacks.
    mov     x0, #0x18
    adr     x1, exit_block
    hlt     #0xf000
5:  wfi
    b       5b

    .balign 8
exit_block:
    .quad   0x20026, 0

// call_el1(fn): run fn at EL1h from EL2 (HCR_EL2.RW must be set); fn ends
// with HVC #0x77, which returns here.
    .global call_el1
call_el1:
    ldr     x1, =saved
    stp     x19, x20, [x1, #0]
    stp     x21, x22, [x1, #16]
    stp     x29, x30, [x1, #32]
    mov     x2, sp
    str     x2, [x1, #48]
    msr     elr_el2, x0
    mov     x0, #0x3c5          // EL1h, DAIF masked
    msr     spsr_el2, x0
    isb
    eret

el1_return:
    ldr     x1, =saved
    ldp     x19, x20, [x1, #0]
    ldp     x21, x22, [x1, #16]
    ldp     x29, x30, [x1, #32]
    ldr     x2, [x1, #48]
    mov     sp, x2
    ret

// Synchronous exceptions: record ESR and skip the faulting instruction,
// except the HVC #0x77 that ends call_el1().
sync_handler:
    mrs     x9, CurrentEL
    cmp     x9, #(3 << 2)
    b.eq    3f
    cmp     x9, #(2 << 2)
    b.eq    2f
    mrs     x10, esr_el1
    mrs     x11, elr_el1
    add     x11, x11, #4
    msr     elr_el1, x11
    b       9f
2:  mrs     x10, esr_el2
    lsr     x11, x10, #26
    cmp     x11, #0x16          // HVC from AArch64
    b.ne    21f
    and     x11, x10, #0xffff
    cmp     x11, #0x77
    b.eq    el1_return
21: mrs     x11, elr_el2        // HVC/SMC: ELR already past the instruction
    lsr     x12, x10, #26
    cmp     x12, #0x16
    b.eq    22f
    cmp     x12, #0x17
    b.eq    22f
    add     x11, x11, #4
22: msr     elr_el2, x11
    b       9f
3:  mrs     x10, esr_el3
    mrs     x11, elr_el3
    add     x11, x11, #4
    msr     elr_el3, x11
9:  ldr     x9, =last_esr
    str     x10, [x9]
    mrs     x10, CurrentEL
    lsr     x10, x10, #2
    ldr     x9, =last_exc_el
    str     x10, [x9]
    eret

    .balign 2048
vectors:
    .irp    n, 0, 1, 2, 3
    .balign 128
    b       sync_handler    // current EL, SP_EL0
    .balign 128
    b       .
    .balign 128
    b       .
    .balign 128
    b       .
    .endr

    .bss
    .balign 16
saved:
    .space  64
    .balign 16
    .space  8192
el1_stack_top:
    .space  16384
stack_top:
