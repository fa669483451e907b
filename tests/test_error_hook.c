/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The error hook (LM_CFG_ERROR_HOOK, include/limen/kernel.h): every refused
 * call is reported with its status, its public name and the address it
 * returns to; outcomes of legal requests and successful calls are not.
 * Built twice: on the default kernel (hook compiled out: setting one is
 * refused) and on the test_error_hook_errhook variant (hook compiled in).
 */
#include <string.h>
#include "harness.h"

#if LM_CFG_ERROR_HOOK

static unsigned reports;
static lm_status_t last_status;
static const char *last_call;
static const void *last_caller;

static void record(lm_status_t status, const char *call, const void *caller)
{
    reports++;
    last_status = status;
    last_call = call;
    last_caller = caller;
    lmt_log("%s:%s", call, lmt_sn(status));
}

static lm_sem_t sem;
static lm_mutex_t mtx;
static lm_thread_t spare;
static lm_queue_t q;
static uint32_t qbuf[2];

/* Where each refused call returns to must lie inside this function: the
 * hook names the application's call site, not a place in the kernel. */
__attribute__((noinline)) static void bad_calls(void)
{
    uint32_t m = 0;
    const void *lo = (const void *)(uintptr_t)bad_calls;
    LMT_ST(lm_sem_give(NULL), LM_ERR_PARAM);
    LMT_CHECK(last_caller > lo && (const char *)last_caller < (const char *)lo + 4096);
    LMT_ST(lm_queue_send(&q, &m, sizeof m + 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_CHECK(last_caller > lo && (const char *)last_caller < (const char *)lo + 4096);
    LMT_ST(lm_queue_send_front(&q, NULL, sizeof m, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_sem_take(&sem, 5), LM_ERR_LOCKED); /* under the scheduler lock */
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_ST(lm_sched_unlock(), LM_ERR_STATE);
    LMT_ST(lm_mutex_unlock(&mtx), LM_ERR_NOT_OWNER);
    lm_thread_attr_t a;
    lm_thread_attr_init(&a); /* no entry, no stack */
    LMT_ST(lm_thread_create(&spare, &a), LM_ERR_PARAM);
    LMT_CHECK(last_caller > lo && (const char *)last_caller < (const char *)lo + 4096);
    LMT_ST(lm_thread_resume(lm_thread_self()), LM_ERR_STATE);
}

static void worker(void *arg)
{
    (void)arg;
    uint32_t m = 7;
    /* Successes and legal outcomes: not reported. */
    LMT_ST(lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_sem_take(&sem, 2), LM_ERR_TIMEOUT);
    LMT_EQ(reports, 1); /* the create refused before the run */
    LMT_ST(lm_sched_lock(), LM_OK);
    bad_calls();
    LMT_EQ(reports, 9);
    LMT_EQ(last_status, LM_ERR_STATE);
    LMT_CHECK(strcmp(last_call, "lm_thread_resume") == 0);
}

static void isr_bad(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, 3), LM_ERR_ISR);
}

LMT_CASE(refusals_are_reported)
{
    lmt_begin();
    reports = 0;
    LMT_ST(lm_error_hook_set(record), LM_OK);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    memset(&q, 0, sizeof q);
    LMT_ST(lm_queue_create(&q, qbuf, sizeof qbuf[0], 2), LM_OK);
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, 0), LM_OK);
    memset(&spare, 0, sizeof spare);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_ERR_STATE); /* live */
    lmt_spawn("W", 3, worker, NULL);
    LMT_EQ(lm_hosted_irq_at_tick(10, isr_bad, NULL), 0);
    lmt_run();
    lmt_expect("lm_sem_create:STATE lm_sem_give:PARAM lm_queue_send:SIZE "
               "lm_queue_send_front:PARAM lm_sem_take:LOCKED lm_sched_unlock:STATE "
               "lm_mutex_unlock:NOT_OWNER lm_thread_create:PARAM lm_thread_resume:STATE "
               "lm_sem_take:ISR");
    LMT_ST(lm_error_hook_set(NULL), LM_OK);
    LMT_ST(lm_sem_give(NULL), LM_ERR_PARAM); /* no hook: nothing happens */
    LMT_EQ(reports, 10);
}

LMT_MAIN(LMT_RUN(refusals_are_reported))

#else

/* Compiled out: a hook cannot be set, clearing it is harmless. */
static void never(lm_status_t status, const char *call, const void *caller)
{
    (void)status;
    (void)call;
    (void)caller;
}

LMT_CASE(hook_compiled_out)
{
    lmt_begin();
    LMT_ST(lm_error_hook_set(never), LM_ERR_STATE);
    LMT_ST(lm_error_hook_set(NULL), LM_OK);
}

LMT_MAIN(LMT_RUN(hook_compiled_out))

#endif
