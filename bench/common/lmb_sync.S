/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Exact interval timing (lmb.h). LOCATE_EDGE sets the next timer read at a
 * chosen phase of the timer's 40-instruction count period:
 *   - a 3-instruction loop polls the timer until it changes: its last read
 *     ran d = 0, 1 or 2 instructions after the edge (the first instant at
 *     which the new value reads);
 *   - two more reads, 38 and 39 instructions after that one, straddle the
 *     next edge: the number of them that see it change is d;
 *   - a branch into a run of NOPs then executes 2 - d + phase of them, so
 *     the instruction after the run starts a fixed distance plus `phase`
 *     after an edge.
 * In: r4 = timer value address, r7 = phase (0..39). Clobbers r2, r3, r12.
 */
    .syntax unified
    .thumb
    .text

    .equ LMB_TIMER, 0x40001004
    .equ RUN, 42

.macro LOCATE_EDGE
    ldr     r12, [r4]
0:  ldr     r3, [r4]
    cmp     r3, r12
    beq     0b
    .rept 35
    nop
    .endr
    ldr     r2, [r4]            /* 38 after the loop's last read */
    ldr     r12, [r4]           /* 39 after it */
    subs    r2, r3, r2          /* 1 if the edge came before the first */
    sub     r12, r3, r12        /* 1 if it came before the second */
    add     r2, r2, r12         /* d */
    sub     r2, r2, r7          /* d - phase */
    add     r2, r2, #(RUN - 2)  /* NOPs to skip: RUN - (2 - d + phase) */
    lsls    r2, r2, #1          /* 2 bytes each */
    add     pc, r2              /* pc reads as this instruction + 4 */
    nop                         /* never runs */
    .rept RUN
    nop
    .endr
.endm

/* uint32_t lmb_sync_store(uint32_t phase, volatile uint32_t *addr, uint32_t value) */
    .global lmb_sync_store
    .type   lmb_sync_store, %function
    .thumb_func
lmb_sync_store:
    push    {r4-r7, lr}
    mov     r7, r0
    mov     r5, r1
    mov     r6, r2
    ldr     r4, =LMB_TIMER
    LOCATE_EDGE
    ldr     r0, [r4]            /* t0 */
    str     r6, [r5]            /* the trigger: the next instruction */
    pop     {r4-r7, pc}
    .size   lmb_sync_store, . - lmb_sync_store

/* uint32_t lmb_sync_store_span(uint32_t phase, volatile uint32_t *addr, uint32_t value):
 * as lmb_sync_store, and the first instruction of the calling thread after
 * the store reads the timer again; returns the counts between the reads. */
    .global lmb_sync_store_span
    .type   lmb_sync_store_span, %function
    .thumb_func
lmb_sync_store_span:
    push    {r4-r7, lr}
    mov     r7, r0
    mov     r5, r1
    mov     r6, r2
    ldr     r4, =LMB_TIMER
    LOCATE_EDGE
    ldr     r0, [r4]            /* t0 */
    str     r6, [r5]            /* the trigger */
    ldr     r1, [r4]            /* the thread's next instruction */
    subs    r0, r0, r1
    pop     {r4-r7, pc}
    .size   lmb_sync_store_span, . - lmb_sync_store_span

/* uint32_t lmb_sync_call(uint32_t phase, lmb_fn_t fn, uintptr_t a0, uintptr_t a1) */
    .global lmb_sync_call
    .type   lmb_sync_call, %function
    .thumb_func
lmb_sync_call:
    push    {r4-r8, lr}
    mov     r7, r0
    mov     r5, r1
    mov     r0, r2
    mov     r1, r3
    ldr     r4, =LMB_TIMER
    LOCATE_EDGE
    ldr     r6, [r4]            /* t0 */
    blx     r5                  /* the call: the next instruction */
    mov     r0, r6
    pop     {r4-r8, pc}
    .size   lmb_sync_call, . - lmb_sync_call

/* uint32_t lmb_call_stamp(lmb_fn_t fn, uintptr_t a0, uintptr_t a1) */
    .global lmb_call_stamp
    .type   lmb_call_stamp, %function
    .thumb_func
lmb_call_stamp:
    push    {r4, lr}
    mov     r3, r0
    mov     r0, r1
    mov     r1, r2
    ldr     r4, =LMB_TIMER
    blx     r3
    ldr     r0, [r4]            /* the first instruction after fn returns */
    pop     {r4, pc}
    .size   lmb_call_stamp, . - lmb_call_stamp

/* void lmb_shift(uint32_t k): returns k (0..39) instructions later than
 * for k = 0, every other instruction the same. */
    .global lmb_shift
    .type   lmb_shift, %function
    .thumb_func
lmb_shift:
    rsb     r0, r0, #RUN        /* NOPs to skip */
    lsls    r0, r0, #1
    add     pc, r0              /* pc reads as this instruction + 4 */
    nop                         /* never runs */
    .rept RUN
    nop
    .endr
    bx      lr
    .size   lmb_shift, . - lmb_shift

    .ltorg
