/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interrupt-placement sweep (docs/sweep.md): scenarios shared by the hosted
 * driver (tests/sweep/test_sweep_host.c: an interrupt before the n-th kernel
 * basic block) and the target driver (tests/target/test_sweep.c: a timer
 * interrupt k instructions into the call, under QEMU -icount).
 *
 * One run = (scenario, handler action, offset): a fresh kernel, the
 * scenario's threads and objects, an actor thread that arms the interrupt
 * and makes the call under test, a handler that makes one kernel call on
 * the same objects and threads, and a janitor at the least urgent priority
 * that, once everything else has settled, runs the consistency check
 * (tests/kcheck.h), releases the threads that legitimately still wait, and
 * checks that no thread is left stranded and every status is legal.
 */
#ifndef LMT_SWEEP_H
#define LMT_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include "limen/limen.h"

struct sw_action {
    const char *name;
    void (*fn)(void); /* runs in the interrupt handler */
};

struct sw_scenario {
    const char *name;   /* scenario, e.g. "sem_delete_3w" */
    const char *call;   /* the call under test, e.g. "lm_sem_delete" */
    void (*setup)(void); /* create objects, spawn the other threads */
    void (*pre)(void);  /* run by the actor before it arms (NULL: none) */
    void (*call_fn)(void); /* the call, made by the actor */
    void (*cleanup)(void); /* janitor: release legitimate waiters */
    /* Scenario-specific assertion after cleanup, NULL if fine. */
    const char *(*verify)(void);
    const struct sw_action *actions;
    unsigned nactions;
    unsigned actor_prio;
    bool in_ctest;      /* part of the ctest subset */
};

extern const struct sw_scenario sw_scenarios[];
extern const unsigned sw_nscenarios;

#define SW_MSG 200

struct sw_result {
    bool fired;        /* the handler ran */
    bool fired_in_call; /* ... while the actor was inside the call */
    bool late;         /* ... only once the janitor had started (offset past the call) */
    bool violation;
    uint32_t pc;       /* target: stacked PC of the interrupt (0 on the host) */
    char what[SW_MSG]; /* the violation */
};

/* Provided by the driver: arrange for sw_irq() to run `offset` units into
 * the call that follows (host: kernel basic blocks; target: instructions). */
void sw_arm(uint32_t offset);
/* Provided by the driver: called by sw_irq (target: records the stacked PC). */
void sw_irq_note(void);

/* Provided by the driver: end the run after a fatal error (the violation
 * is recorded); does not return. */
_Noreturn void sw_fatal_exit(void);

/* The handler body, called from the driver's interrupt. */
void sw_irq(void);

/* One run; the result goes to *out. Must be called from main (it runs a
 * whole simulation). */
void sw_run_one(unsigned scenario, unsigned action, uint32_t offset, struct sw_result *out);

/*
 * EXPECTED FAILURES: (scenario, action) pairs that violate an invariant on
 * the kernel of this commit because of a known defect (issue 10). They are
 * run and reported (XFAIL), but do not fail the test; one that passes is
 * reported as XPASS so it can be taken off the list. Everything else must
 * pass. Returns the reason, or NULL if the pair is expected to pass.
 */
const char *sw_expected_failure(const char *scenario, const char *action);

#endif
