/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every benchmark image shares: the time base, exact interval timing,
 * result lines and thread creation (docs/measuring.md, "./limen bench").
 *
 * Time base: CMSDK timer 1 of mps2 (0x40001000), which the board starts
 * free-running down from 0xFFFFFFFF at 25 MHz. Under QEMU -icount shift=0
 * one count is exactly LMB_INSTR_PER_COUNT guest instructions, so the
 * elapsed count of an interval is earlier reading - later reading.
 */
#ifndef LMB_H
#define LMB_H

#include <stdint.h>
#include "limen/limen.h"

#define LMB_TIMER_VALUE (*(volatile uint32_t *)0x40001004u)
#define LMB_INSTR_PER_COUNT 40u
#define LMB_PHASES 40u

#define LMB_SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define LMB_ICSR (*(volatile uint32_t *)0xE000ED04u)
#define LMB_ICSR_PENDSTSET (1u << 26)
#define LMB_NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define LMB_NVIC_IPR(n) (*(volatile uint8_t *)(0xE000E400u + (n)))
#define LMB_STIR (*(volatile uint32_t *)0xE000EF00u)

/* Measure 3's line: no device of the image uses it; its priority is below
 * the kernel's masking level and above PendSV. The board sends it to the
 * weak IRQ_Handler, which the measure-3 image defines. */
#define LMB_IRQ_LINE 20u
#define LMB_IRQ_PRIO 0xC0u

#define LMB_STACK_BYTES 1024u

static inline uint32_t lmb_now(void)
{
    return LMB_TIMER_VALUE;
}

/* The periodic tick stops counting; software can still pend SysTick. */
static inline void lmb_tick_stop(void)
{
    LMB_SYST_CSR &= ~1u;
}

/*
 * Exact timing (lmb_sync.S). An interval of n instructions starting with a
 * timer read at phase k of the 40-instruction count period elapses
 * floor((n + k) / 40) counts; over k = 0..39 these sum to n exactly. So the
 * start-of-interval primitives first find a timer edge to the instruction,
 * then wait `phase` more instructions before their read.
 *
 * lmb_sync_store: reads t0, and its very next instruction stores value to
 *   *addr (the trigger). Returns t0 when the calling thread runs again.
 * lmb_sync_call: reads t0, and its very next instruction calls fn(a0, a1).
 *   Returns t0 when fn returns.
 * lmb_call_stamp: calls fn(a0, a1); the first instruction after fn returns
 *   reads the timer; returns that reading.
 */
typedef uintptr_t (*lmb_fn_t)(uintptr_t a0, uintptr_t a1);
uint32_t lmb_sync_store(uint32_t phase, volatile uint32_t *addr, uint32_t value);
uint32_t lmb_sync_call(uint32_t phase, lmb_fn_t fn, uintptr_t a0, uintptr_t a1);
/* lmb_sync_store_span: as lmb_sync_store, and the calling thread's first
 * instruction after the store reads the timer again (when the store's
 * exception returns to it); returns the counts between the two reads. */
uint32_t lmb_sync_store_span(uint32_t phase, volatile uint32_t *addr, uint32_t value);
uint32_t lmb_call_stamp(lmb_fn_t fn, uintptr_t a0, uintptr_t a1);

/* Measures 1 and 2 read the timer at cycle boundaries, to whole counts.
 * Started k = 0..39 instructions later (lmb_shift, before the kernel
 * starts its tick), the same run reads the same interval at each phase of
 * the count period, and the 40 readings sum to it exactly. `./limen bench
 * quick --exact` passes k as two digits after the image's name
 * (QEMU -append, read by semihosting). */
void lmb_shift(uint32_t k);

/* Kernel calls as lmb_fn_t: the timed calls go straight into the kernel. */
#define LMB_FN(f) ((lmb_fn_t)(uintptr_t)(f))

/* One sweep of the 40 phases. */
typedef struct lmb_sweep {
    uint32_t sum; /* counts over the 40 phases = instructions */
    uint32_t min;
    uint32_t max;
} lmb_sweep_t;
void lmb_sweep_reset(lmb_sweep_t *s);
void lmb_sweep_add(lmb_sweep_t *s, uint32_t counts);

/* "LMB <measure> name=value ..." lines, read by tools/bench.py. */
void lmb_begin(const char *measure);
void lmb_text(const char *name, const char *value);
void lmb_value(const char *name, uint32_t value);
_Noreturn void lmb_end(void);

/* Create and start a thread; threshold == priority means none. Stops the
 * image if the kernel refuses (a benchmark that silently lost a thread
 * would print wrong figures). */
void lmb_thread(lm_thread_t *t, void (*entry)(void *), void *arg, void *stack,
                unsigned priority, unsigned threshold);
_Noreturn void lmb_fail(const char *what);

/* Each image's own objects and threads, created before the kernel starts. */
void lmb_app_setup(void);

#endif
