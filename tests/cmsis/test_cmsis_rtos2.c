/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CMSIS-RTOS2 layer against the API's definition, on the hosted port
 * (under the sanitizers) and on the QEMU boards: return codes, state
 * transitions, the orders the API fixes, calls from interrupt handlers,
 * timeouts on the exact tick, pool exhaustion, deletion with waiters.
 * Each case runs its body in a CMSIS thread ("M", osPriorityNormal) and ends
 * the run with finish().
 */
#include <string.h>
#include "harness.h"
#include "cmsis_os2.h"
#include "lm_cmsis.h"
#include "limen/port.h"


/* ---- running a case ---- */

static void (*case_body)(void);

static void finish(void)
{
#if defined(LM_PORT_HOSTED)
    lm_hosted_stop();
#else
    lm_port_stop();
#endif
}

static void main_thread(void *arg)
{
    (void)arg;
    case_body();
    finish();
}

static void run_case(void (*body)(void))
{
    lmt_begin();
    lm_cmsis_reset();
    LMT_EQ(osKernelGetState(), osKernelInactive);
    LMT_EQ(osKernelInitialize(), osOK);
    LMT_EQ(osKernelInitialize(), osOK); /* ready: again is fine */
    LMT_EQ(osKernelGetState(), osKernelReady);
    case_body = body;
    static const osThreadAttr_t attr = {.name = "M", .priority = osPriorityNormal};
    LMT_CHECK(osThreadNew(main_thread, NULL, &attr) != NULL);
    LMT_EQ(osKernelStart(), osOK);
}

/* ---- interrupts ---- */

static void (*isr_body)(void);

#if defined(LM_PORT_HOSTED)
static void hosted_isr(void *arg)
{
    (void)arg;
    isr_body();
}
static void in_isr(void (*fn)(void))
{
    isr_body = fn;
    LMT_EQ(lm_hosted_irq_raise(hosted_isr, NULL), 0);
}
#else
#include "limen/port.h"
#define LMT_IRQ 30u
void IRQ_Handler(void);
void IRQ_Handler(void)
{
    isr_body();
}
static void in_isr(void (*fn)(void))
{
    isr_body = fn;
    lm_nvic_set_priority(LMT_IRQ, 0x80u);
    lm_nvic_enable(LMT_IRQ);
    LM_REG32(0xE000E200u) = 1u << LMT_IRQ; /* NVIC_ISPR0: pend it */
    __asm volatile("dsb\n isb" ::: "memory");
}
#endif

/* ---- kernel ---- */

static volatile int32_t isr_i32;
static volatile uint32_t isr_u32;
static void *volatile isr_ptr;

static void isr_kernel(void)
{
    isr_i32 = osKernelLock();
    isr_u32 = (uint32_t)osKernelInitialize();
    isr_ptr = osThreadNew(main_thread, NULL, NULL);
}

static void body_kernel(void)
{
    osVersion_t v;
    char id[8];
    LMT_EQ(osKernelGetInfo(&v, id, sizeof id), osOK);
    LMT_EQ(v.api, 20030000u);
    LMT_CHECK(v.kernel != 0u);
    LMT_CHECK(strcmp(id, "Limen V") == 0); /* truncated to the buffer */
    LMT_EQ(osKernelGetState(), osKernelRunning);
    LMT_EQ(osKernelInitialize(), osError);
    LMT_EQ(osKernelStart(), osError);
    LMT_EQ(osKernelGetTickFreq(), LM_CFG_TICK_HZ);
    LMT_CHECK(osKernelGetSysTimerFreq() >= osKernelGetTickFreq());

    LMT_EQ(osKernelLock(), 0);
    LMT_EQ(osKernelGetState(), osKernelLocked);
    LMT_EQ(osKernelLock(), 1);
    LMT_EQ(osDelay(1), osError); /* may not block while locked */
    LMT_EQ(osKernelUnlock(), 1);
    LMT_EQ(osKernelUnlock(), 0);
    LMT_EQ(osKernelRestoreLock(1), 1);
    LMT_EQ(osKernelGetState(), osKernelLocked);
    LMT_EQ(osKernelRestoreLock(0), 0);
    LMT_EQ(osKernelRestoreLock(2), osError);
    LMT_EQ(osKernelGetState(), osKernelRunning);

    in_isr(isr_kernel);
    LMT_EQ(isr_i32, osErrorISR);
    LMT_EQ((int32_t)isr_u32, osErrorISR);
    LMT_CHECK(isr_ptr == NULL);
}
LMT_CASE(kernel_info_lock_isr) { run_case(body_kernel); }

/* osKernelSuspend returns the ticks to the next timeout; osKernelResume
 * accounts for the ticks asked for: a thread delayed 5 ticks runs at the
 * resume, and the tick count has moved by exactly 5. */
static void delayed5(void *arg)
{
    (void)arg;
    LMT_EQ(osDelay(5), osOK);
    lmt_log("D@%u", (unsigned)osKernelGetTickCount());
}

static void body_suspend(void)
{
    LMT_EQ(osKernelSuspend(), osWaitForever);
    LMT_EQ(osKernelGetState(), osKernelSuspended);
    LMT_EQ(osKernelSuspend(), 0u);
    LMT_EQ(osKernelLock(), osError);
    osKernelResume(0);
    LMT_EQ(osKernelGetState(), osKernelRunning);
    uint32_t t0 = osKernelGetTickCount();
    osThreadAttr_t a = {.name = "D", .priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(delayed5, NULL, &a) != NULL);
    LMT_EQ(osKernelSuspend(), 5u);
    lmt_log("resume");
    osKernelResume(5);
    lmt_log("M@%u", (unsigned)(osKernelGetTickCount() - t0));
    lmt_expect("resume D@5 M@5");
}
LMT_CASE(kernel_suspend_resume) { run_case(body_suspend); }

/* ---- threads ---- */

static void logger(void *arg)
{
    lmt_log("%s", (const char *)arg);
}

/* Higher CMSIS priority runs first; equal priorities in creation order;
 * a new thread more urgent than its creator runs at once. */
static void body_priority_order(void)
{
    osThreadAttr_t a = {.priority = osPriorityBelowNormal};
    LMT_CHECK(osThreadNew(logger, "b1", &a) != NULL);
    a.priority = osPriorityLow;
    LMT_CHECK(osThreadNew(logger, "l", &a) != NULL);
    a.priority = osPriorityBelowNormal;
    LMT_CHECK(osThreadNew(logger, "b2", &a) != NULL);
    a.priority = osPriorityAboveNormal;
    LMT_CHECK(osThreadNew(logger, "a", &a) != NULL);
    a.priority = osPriorityNormal1;
    LMT_CHECK(osThreadNew(logger, "n1", &a) != NULL);
    lmt_log("M");
    LMT_EQ(osDelay(1), osOK);
    lmt_expect("a n1 M b1 b2 l");
    LMT_EQ(osThreadGetPriority(osThreadGetId()), osPriorityNormal);
    LMT_EQ(osThreadSetPriority(osThreadGetId(), osPriorityISR), osErrorParameter);
    LMT_EQ(osThreadSetPriority(osThreadGetId(), osPriorityHigh7), osOK);
    LMT_EQ(osThreadGetPriority(osThreadGetId()), osPriorityHigh7);
    a.priority = osPriorityISR;
    LMT_CHECK(osThreadNew(logger, "x", &a) == NULL);
    a.priority = (osPriority_t)57;
    LMT_CHECK(osThreadNew(logger, "x", &a) == NULL);
}
LMT_CASE(thread_priority_order) { run_case(body_priority_order); }

static void waiter(void *arg)
{
    (void)arg;
    LMT_EQ(osDelay(osWaitForever), osOK); /* ended by osThreadResume */
    lmt_log("w");
}

static volatile osThreadState_t isr_state;
static osThreadId_t isr_target;
static void isr_thread(void)
{
    isr_state = osThreadGetState(isr_target);
    isr_u32 = (uint32_t)osThreadSuspend(isr_target);
    isr_ptr = osThreadGetId();
}

static void body_thread_states(void)
{
    osThreadAttr_t a = {.name = "W", .priority = osPriorityLow, .attr_bits = osThreadJoinable};
    osThreadId_t w = osThreadNew(waiter, NULL, &a);
    LMT_CHECK(w != NULL);
    LMT_CHECK(strcmp(osThreadGetName(w), "W") == 0);
    LMT_EQ(osThreadGetState(w), osThreadReady);
    LMT_EQ(osThreadGetState(osThreadGetId()), osThreadRunning);
    LMT_EQ(osThreadResume(w), osErrorResource); /* ready: nothing to resume */
    LMT_EQ(osDelay(1), osOK);
    LMT_EQ(osThreadGetState(w), osThreadBlocked);
    LMT_EQ(osThreadSuspend(w), osOK);
    LMT_EQ(osThreadSuspend(w), osErrorResource);
    LMT_EQ(osThreadGetState(w), osThreadBlocked);
    isr_target = w;
    in_isr(isr_thread);
    LMT_EQ(isr_state, osThreadError);
    LMT_EQ((int32_t)isr_u32, osErrorISR);
    LMT_CHECK(isr_ptr == osThreadGetId()); /* the interrupted thread */
    LMT_EQ(osThreadResume(w), osOK); /* suspended: waits again */
    LMT_EQ(osThreadGetState(w), osThreadBlocked);
    LMT_EQ(osThreadResume(w), osOK); /* waiting: the wait ends */
    LMT_EQ(osThreadJoin(w), osOK);
    lmt_expect("w");
    LMT_EQ(osThreadGetState(w), osThreadError); /* forgotten */
    LMT_EQ(osThreadJoin(w), osErrorParameter);
    LMT_EQ(osThreadTerminate(NULL), osErrorParameter);
    LMT_EQ(osThreadGetStackSize(osThreadGetId()), LM_CMSIS_STACK_SIZE);
    LMT_CHECK(osThreadGetStackSpace(osThreadGetId()) > 0u);
    LMT_CHECK(osThreadGetStackSpace(osThreadGetId()) < LM_CMSIS_STACK_SIZE);
    LMT_EQ(osThreadSetAffinityMask(osThreadGetId(), 2u), osErrorParameter);
    LMT_EQ(osThreadSetAffinityMask(osThreadGetId(), 1u), osOK);
    LMT_EQ(osThreadGetAffinityMask(osThreadGetId()), 1u);
}
LMT_CASE(thread_states_resume_join) { run_case(body_thread_states); }

static void returns(void *arg)
{
    lmt_log("%s", (const char *)arg);
}

static void forever(void *arg)
{
    (void)arg;
    for (;;) {
        (void)osDelay(osWaitForever);
    }
}

/* Count, enumerate, detach, terminate; a thread that returns exits. */
static void body_registry(void)
{
    osThreadId_t ids[8];
    LMT_EQ(osThreadGetCount(), 1u);
    osThreadAttr_t a = {.priority = osPriorityLow, .attr_bits = osThreadJoinable};
    osThreadId_t j = osThreadNew(returns, "j", &a);
    osThreadId_t f = osThreadNew(forever, NULL, &a);
    LMT_EQ(osThreadGetCount(), 3u);
    LMT_EQ(osThreadEnumerate(ids, 8), 3u);
    LMT_CHECK(ids[0] == f && ids[1] == j && ids[2] == osThreadGetId());
    LMT_EQ(osThreadEnumerate(ids, 1), 1u);
    LMT_EQ(osThreadEnumerate(NULL, 1), 0u);
    LMT_EQ(osDelay(1), osOK);
    LMT_EQ(osThreadGetState(j), osThreadTerminated); /* returned, not joined */
    LMT_EQ(osThreadGetCount(), 2u);
    LMT_EQ(osThreadTerminate(j), osErrorResource);
    LMT_EQ(osThreadDetach(j), osOK); /* ended and detached: forgotten */
    LMT_EQ(osThreadGetState(j), osThreadError);
    LMT_EQ(osThreadTerminate(f), osOK);
    LMT_EQ(osThreadGetState(f), osThreadTerminated);
    LMT_EQ(osThreadGetCount(), 1u);
    LMT_EQ(osThreadJoin(f), osOK);
    LMT_EQ(osThreadDetach(osThreadGetId()), osErrorResource); /* detached already */
    lmt_expect("j");
}
LMT_CASE(thread_registry_detach_terminate) { run_case(body_registry); }

/* Pooled control blocks and stacks run out: NULL, never a crash; a
 * detached thread that ends gives its slots back. */
static void body_thread_pool(void)
{
    osThreadAttr_t a = {.priority = osPriorityLow};
    osThreadId_t ids[LM_CMSIS_THREAD_COUNT];
    unsigned n = 0;
    while (n < LM_CMSIS_THREAD_COUNT) {
        osThreadId_t id = osThreadNew(forever, NULL, &a);
        if (id == NULL) {
            break;
        }
        ids[n++] = id;
    }
    LMT_EQ(n, LM_CMSIS_THREAD_COUNT - 1u); /* "M" holds one */
    LMT_CHECK(osThreadNew(forever, NULL, &a) == NULL);
    LMT_EQ(osThreadTerminate(ids[0]), osOK);
    LMT_CHECK(osThreadNew(returns, "r", &a) != NULL);
    LMT_EQ(osDelay(1), osOK); /* r returned: its slots are free again */
    LMT_CHECK(osThreadNew(forever, NULL, &a) != NULL);
    a.stack_size = LM_CMSIS_STACK_SIZE + 1u;
    LMT_CHECK(osThreadNew(forever, NULL, &a) == NULL); /* larger than a pooled stack */
    /* Caller memory: too small a control block or stack is refused. */
    static lm_cmsis_thread_t cb;
    static _Alignas(LM_PORT_STACK_ALIGN) uint8_t stack[LM_PORT_MIN_STACK > 2048u ? LM_PORT_MIN_STACK : 2048u];
    osThreadAttr_t c = {.cb_mem = &cb, .cb_size = sizeof cb - 1u, .stack_mem = stack,
                        .stack_size = sizeof stack, .priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(returns, "c", &c) == NULL);
    c.cb_size = sizeof cb;
    c.stack_size = LM_PORT_MIN_STACK - 8u;
    LMT_CHECK(osThreadNew(returns, "c", &c) == NULL);
    c.stack_size = sizeof stack;
    LMT_CHECK(osThreadNew(returns, "c", &c) == (osThreadId_t)&cb);
    LMT_CHECK(osThreadNew(returns, "c2", &c) == (osThreadId_t)&cb); /* ended: reusable */
    lmt_expect("r c c2");
}
LMT_CASE(thread_pool_exhaustion) { run_case(body_thread_pool); }

/* A nameless thread has no name; the stack size is the one asked for,
 * and the space left is counted within it, though a pooled stack is
 * larger. */
static void body_thread_name_stack(void)
{
    osThreadAttr_t a = {.priority = osPriorityLow, .stack_size = 128u};
    osThreadId_t id = osThreadNew(forever, NULL, &a);
    LMT_CHECK(id != NULL);
    LMT_CHECK(osThreadGetName(id) == NULL);
    LMT_EQ(osThreadGetStackSize(id), 128u);
    LMT_CHECK(osThreadGetStackSpace(id) < 128u);
    LMT_EQ(osThreadTerminate(id), osOK);
}
LMT_CASE(thread_name_stack_size) { run_case(body_thread_name_stack); }

static void slow(void *arg)
{
    LMT_EQ(osDelay(3), osOK);
    lmt_log("%s", (const char *)arg);
}

/* A joinable thread's control block used again after a join: the second
 * join waits for the second thread. */
static void body_join_reuse(void)
{
    osThreadAttr_t a = {.priority = osPriorityLow, .attr_bits = osThreadJoinable};
    osThreadId_t first = osThreadNew(slow, "1", &a);
    LMT_EQ(osThreadJoin(first), osOK);
    lmt_log("j1");
    osThreadId_t second = osThreadNew(slow, "2", &a);
    LMT_CHECK(second == first); /* the same pooled slot */
    LMT_EQ(osThreadJoin(second), osOK);
    lmt_log("j2");
    lmt_expect("1 j1 2 j2");
}
LMT_CASE(thread_join_slot_reused) { run_case(body_join_reuse); }

/* A native thread is not a CMSIS thread, even when the word after its
 * control block happens to hold the layer's magic (0x43325468): GetId is
 * NULL, a mutex it owns has no CMSIS owner. */
static lm_cmsis_thread_t native_cb; /* a kernel thread, then that word */
static _Alignas(LM_PORT_STACK_ALIGN) uint8_t native_stack[LM_PORT_MIN_STACK > 2048u ? LM_PORT_MIN_STACK : 2048u];
static osMutexId_t native_mx;
static void native(void *arg)
{
    (void)arg;
    LMT_CHECK(osThreadGetId() == NULL);
    LMT_EQ(osThreadFlagsWait(1u, osFlagsWaitAny, 0), osFlagsErrorUnknown);
    LMT_EQ(osMutexAcquire(native_mx, 0), osOK);
    lmt_log("n");
    (void)lm_thread_sleep(LM_WAIT_FOREVER); /* keeps the mutex */
}

static void body_native_thread(void)
{
    native_mx = osMutexNew(NULL);
    native_cb.magic = 0x43325468u;
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "native";
    a.entry = native;
    a.stack = native_stack;
    a.stack_size = sizeof native_stack;
    a.priority = 0;
    LMT_ST(lm_thread_create(&native_cb.thread, &a), LM_OK);
    LMT_ST(lm_thread_start(&native_cb.thread), LM_OK);
    LMT_CHECK(lm_mutex_owner(&((lm_cmsis_mutex_t *)native_mx)->mutex) == &native_cb.thread);
    LMT_CHECK(osMutexGetOwner(native_mx) == NULL);
    lmt_expect("n");
}
LMT_CASE(native_thread_not_cmsis) { run_case(body_native_thread); }

static void locks_and_exits(void *arg)
{
    (void)arg;
    LMT_EQ(osKernelLock(), 0);
    lmt_log("x");
    osThreadExit();
}

/* A thread that exits holding the kernel lock takes the lock with it (the
 * kernel ends the lock with its holder). */
static void body_exit_locked(void)
{
    osThreadAttr_t a = {.priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(locks_and_exits, NULL, &a) != NULL);
    LMT_EQ(osKernelGetState(), osKernelRunning);
    lmt_log("M");
    lmt_expect("x M");
}
LMT_CASE(thread_exit_locked) { run_case(body_exit_locked); }

static osThreadId_t join_target;
static void joiner(void *arg)
{
    (void)arg;
    (void)osThreadJoin(join_target); /* terminated while it waits */
    lmt_log("never");
}

/* A thread terminated while it waits in osThreadJoin leaves the target
 * joinable by another. */
static void body_joiner_terminated(void)
{
    osThreadAttr_t a = {.priority = osPriorityLow, .attr_bits = osThreadJoinable};
    join_target = osThreadNew(slow, "t", &a);
    a.priority = osPriorityHigh;
    a.attr_bits = osThreadDetached;
    osThreadId_t j = osThreadNew(joiner, NULL, &a);
    LMT_EQ(osThreadJoin(join_target), osErrorResource); /* j joins it */
    LMT_EQ(osThreadTerminate(j), osOK);
    LMT_EQ(osThreadJoin(join_target), osOK);
    lmt_expect("t");
}
LMT_CASE(thread_joiner_terminated) { run_case(body_joiner_terminated); }

/* ---- thread flags, delays ---- */

static osThreadId_t flag_waiter_id;
static void flag_waiter(void *arg)
{
    (void)arg;
    uint32_t t0 = osKernelGetTickCount();
    uint32_t r = osThreadFlagsWait(0x3u, osFlagsWaitAll, 10);
    lmt_log("w%x@%u", (unsigned)r, (unsigned)(osKernelGetTickCount() - t0));
    r = osThreadFlagsWait(0x4u, osFlagsWaitAny, 3);
    lmt_log("t%x@%u", (unsigned)r, (unsigned)(osKernelGetTickCount() - t0));
}

static void isr_flags(void)
{
    isr_u32 = osThreadFlagsSet(flag_waiter_id, 0x2u);
}

static void body_thread_flags(void)
{
    LMT_EQ(osThreadFlagsSet(osThreadGetId(), 0x5u), 0x5u);
    LMT_EQ(osThreadFlagsGet(), 0x5u);
    LMT_EQ(osThreadFlagsClear(0x1u), 0x5u);
    LMT_EQ(osThreadFlagsWait(0x4u, osFlagsNoClear, 0), 0x4u);
    LMT_EQ(osThreadFlagsWait(0x4u, osFlagsWaitAny, 0), 0x4u);
    LMT_EQ(osThreadFlagsGet(), 0x0u);
    LMT_EQ(osThreadFlagsWait(0x1u, osFlagsWaitAny, 0), osFlagsErrorResource);
    LMT_EQ(osThreadFlagsWait(0x80000000u, osFlagsWaitAny, 0), osFlagsErrorParameter);
    LMT_EQ(osThreadFlagsSet(NULL, 1u), osFlagsErrorParameter);
    osThreadAttr_t a = {.priority = osPriorityHigh};
    flag_waiter_id = osThreadNew(flag_waiter, NULL, &a);
    LMT_EQ(osThreadFlagsSet(flag_waiter_id, 0x1u), 0x1u); /* not all yet */
    LMT_EQ(osDelay(2), osOK);
    in_isr(isr_flags);
    LMT_EQ(isr_u32, 0x0u); /* the waiter consumed both at once */
    LMT_EQ(osDelay(10), osOK);
    lmt_expect("w3@2 tfffffffe@5");
}
LMT_CASE(thread_flags) { run_case(body_thread_flags); }

static void body_delays(void)
{
    uint32_t t0 = osKernelGetTickCount();
    LMT_EQ(osDelay(3), osOK);
    LMT_EQ(osKernelGetTickCount() - t0, 3u);
    LMT_EQ(osDelayUntil(t0 + 10u), osOK);
    LMT_EQ(osKernelGetTickCount() - t0, 10u);
    LMT_EQ(osDelayUntil(t0 + 10u), osErrorParameter); /* now */
    LMT_EQ(osDelayUntil(t0), osErrorParameter);       /* past */
    LMT_EQ(osDelay(0), osOK);
}
LMT_CASE(generic_wait_exact_ticks) { run_case(body_delays); }

/* ---- timers ---- */

static void tick_cb(void *arg)
{
    lmt_log("%s@%u:%s", (const char *)arg, (unsigned)osKernelGetTickCount(),
            osThreadGetName(osThreadGetId()));
}

static void isr_timer(void)
{
    isr_u32 = (uint32_t)osTimerStart(isr_ptr, 1);
}

static void body_timers(void)
{
    osTimerId_t once = osTimerNew(tick_cb, osTimerOnce, "o", NULL);
    osTimerAttr_t ta = {.name = "per"};
    osTimerId_t per = osTimerNew(tick_cb, osTimerPeriodic, "p", &ta);
    LMT_CHECK(once != NULL && per != NULL);
    LMT_CHECK(strcmp(osTimerGetName(per), "per") == 0);
    LMT_CHECK(osTimerNew(NULL, osTimerOnce, NULL, NULL) == NULL);
    LMT_CHECK(osTimerNew(tick_cb, (osTimerType_t)2, NULL, NULL) == NULL);
    LMT_EQ(osTimerStop(once), osErrorResource);
    LMT_EQ(osTimerStart(once, 0), osErrorParameter);
    LMT_EQ(osTimerStart(once, 5), osOK);
    LMT_EQ(osTimerStart(per, 2), osOK);
    LMT_EQ(osTimerIsRunning(per), 1u);
    isr_ptr = per;
    in_isr(isr_timer);
    LMT_EQ((int32_t)isr_u32, osErrorISR);
    LMT_EQ(osDelay(7), osOK);
    LMT_EQ(osTimerIsRunning(once), 0u);
    LMT_EQ(osTimerStop(per), osOK);
    LMT_EQ(osTimerIsRunning(per), 0u);
    LMT_EQ(osTimerDelete(once), osOK);
    LMT_EQ(osTimerDelete(once), osErrorParameter);
    LMT_EQ(osTimerDelete(per), osOK);
    lmt_expect("p@2:timer p@4:timer o@5:timer p@6:timer");
}
LMT_CASE(timers_in_service_thread) { run_case(body_timers); }

#if defined(LM_PORT_HOSTED)
static volatile uint32_t expiries;
static void count_cb(void *arg)
{
    (void)arg;
    expiries++;
}

/* Expiries beyond LM_CMSIS_TIMER_QUEUE that find the service thread kept
 * from running are dropped and counted; the others run once it runs. */
static void body_timer_dropped(void)
{
    osTimerId_t t = osTimerNew(count_cb, osTimerPeriodic, NULL, NULL);
    LMT_EQ(osTimerStart(t, 1), osOK);
    LMT_EQ(osKernelLock(), 0);
    /* 11 ticks: the expiries of the first 10 are handled during the work,
     * 8 queued and 2 dropped; the last tick's is handled at the unlock,
     * after the service thread has made room. */
    lm_hosted_work(LM_CMSIS_TIMER_QUEUE + 3u);
    LMT_EQ(expiries, 0u);
    LMT_EQ(lm_cmsis_timer_dropped(), 2u);
    LMT_EQ(osKernelUnlock(), 1);
    LMT_EQ(osTimerStop(t), osOK);
    LMT_EQ(expiries, LM_CMSIS_TIMER_QUEUE + 1u);
    LMT_EQ(lm_cmsis_timer_dropped(), 2u);
    LMT_EQ(osTimerDelete(t), osOK);
}
LMT_CASE(timer_expiries_dropped) { run_case(body_timer_dropped); }
#define HOSTED_CASE(c) LMT_RUN(c),
#else
#define HOSTED_CASE(c)
#endif

/* ---- event flags ---- */

static osEventFlagsId_t ef;
static void ef_waiter(void *arg)
{
    uint32_t r = osEventFlagsWait(ef, (uint32_t)(uintptr_t)arg, osFlagsWaitAny, osWaitForever);
    lmt_log("%s%x", osThreadGetName(osThreadGetId()), (unsigned)r);
}

static void isr_ef(void)
{
    isr_u32 = osEventFlagsWait(ef, 1u, osFlagsWaitAny, 5);
}

static void body_event_flags(void)
{
    ef = osEventFlagsNew(NULL);
    LMT_CHECK(ef != NULL);
    osThreadAttr_t a = {.name = "A", .priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(ef_waiter, (void *)(uintptr_t)0x1u, &a) != NULL);
    a.name = "B";
    LMT_CHECK(osThreadNew(ef_waiter, (void *)(uintptr_t)0x6u, &a) != NULL);
    LMT_EQ(osEventFlagsSet(ef, 0x9u), 0x8u); /* A consumed bit 0 */
    LMT_EQ(osEventFlagsClear(ef, 0x8u), 0x8u);
    LMT_EQ(osEventFlagsGet(ef), 0x0u);
    in_isr(isr_ef);
    LMT_EQ(isr_u32, osFlagsErrorParameter); /* a timeout from an interrupt */
    LMT_EQ(osEventFlagsWait(ef, 0x1u, osFlagsWaitAny, 2), osFlagsErrorTimeout);
    LMT_EQ(osEventFlagsSet(ef, 0x80000000u), osFlagsErrorParameter);
    LMT_EQ(osEventFlagsDelete(ef), osOK); /* B is woken */
    LMT_EQ(osEventFlagsGet(ef), 0u);
    LMT_EQ(osEventFlagsSet(ef, 1u), osFlagsErrorParameter);
    lmt_expect("A9 Bfffffffd");
}
LMT_CASE(event_flags) { run_case(body_event_flags); }

/* ---- mutexes ---- */

static osMutexId_t mx;
static void mx_taker(void *arg)
{
    (void)arg;
    LMT_EQ(osMutexAcquire(mx, osWaitForever), osOK);
    lmt_log("H");
    LMT_EQ(osMutexRelease(mx), osOK);
}

static void mx_owner_dies(void *arg)
{
    (void)arg;
    LMT_EQ(osMutexAcquire(mx, 0), osOK);
    lmt_log("o");
}

static void body_mutex(void)
{
    osMutexAttr_t ma = {.name = "m", .attr_bits = osMutexPrioInherit};
    mx = osMutexNew(&ma);
    LMT_CHECK(mx != NULL);
    LMT_EQ(osMutexAcquire(mx, 0), osOK);
    LMT_EQ(osMutexAcquire(mx, 0), osErrorResource); /* not recursive */
    LMT_CHECK(osMutexGetOwner(mx) == osThreadGetId());
    osThreadAttr_t a = {.priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(mx_taker, NULL, &a) != NULL);
    LMT_EQ(osThreadGetPriority(osThreadGetId()), osPriorityHigh); /* inherited */
    lmt_log("M");
    LMT_EQ(osMutexRelease(mx), osOK);
    LMT_EQ(osThreadGetPriority(osThreadGetId()), osPriorityNormal);
    LMT_EQ(osMutexRelease(mx), osErrorResource);
    LMT_EQ(osMutexDelete(mx), osOK);
    LMT_EQ(osMutexAcquire(mx, 0), osErrorParameter);

    ma.attr_bits = osMutexRecursive | osMutexRobust;
    mx = osMutexNew(&ma);
    LMT_EQ(osMutexAcquire(mx, 0), osOK);
    LMT_EQ(osMutexAcquire(mx, 0), osOK);
    LMT_EQ(osMutexRelease(mx), osOK);
    LMT_EQ(osMutexRelease(mx), osOK);
    LMT_CHECK(osMutexGetOwner(mx) == NULL);
    /* Robust: released when its owner ends. */
    LMT_CHECK(osThreadNew(mx_owner_dies, NULL, &a) != NULL);
    LMT_CHECK(osMutexGetOwner(mx) == NULL);
    LMT_EQ(osMutexAcquire(mx, 0), osOK);
    LMT_EQ(osMutexRelease(mx), osOK);
    ma.attr_bits = 0x10u;
    LMT_CHECK(osMutexNew(&ma) == NULL);
    lmt_expect("M H o");
}
LMT_CASE(mutex_inherit_recursive_robust) { run_case(body_mutex); }

/* ---- semaphores ---- */

static osSemaphoreId_t sm;
static void sem_taker(void *arg)
{
    osStatus_t s = osSemaphoreAcquire(sm, osWaitForever);
    lmt_log("%s:%d", (const char *)arg, (int)s);
}

static void isr_sem(void)
{
    isr_u32 = (uint32_t)osSemaphoreRelease(sm);
    isr_i32 = osSemaphoreAcquire(sm, 1);
}

static void body_semaphore(void)
{
    LMT_CHECK(osSemaphoreNew(0, 0, NULL) == NULL);
    LMT_CHECK(osSemaphoreNew(1, 2, NULL) == NULL);
    sm = osSemaphoreNew(2, 0, NULL);
    LMT_EQ(osSemaphoreAcquire(sm, 0), osErrorResource);
    LMT_EQ(osSemaphoreAcquire(sm, 2), osErrorTimeout);
    osThreadAttr_t a = {.priority = osPriorityLow};
    LMT_CHECK(osThreadNew(sem_taker, "low", &a) != NULL);
    a.priority = osPriorityHigh;
    LMT_CHECK(osThreadNew(sem_taker, "high", &a) != NULL);
    LMT_EQ(osDelay(1), osOK);
    in_isr(isr_sem);
    LMT_EQ(isr_u32, osOK);
    LMT_EQ(isr_i32, osErrorParameter);
    LMT_EQ(osSemaphoreRelease(sm), osOK);
    LMT_EQ(osDelay(1), osOK);
    LMT_EQ(osSemaphoreRelease(sm), osOK);
    LMT_EQ(osSemaphoreRelease(sm), osOK);
    LMT_EQ(osSemaphoreRelease(sm), osErrorResource); /* at its maximum */
    LMT_EQ(osSemaphoreGetCount(sm), 2u);
    LMT_EQ(osSemaphoreDelete(sm), osOK);
    LMT_EQ(osSemaphoreGetCount(sm), 0u);
    lmt_expect("high:0 low:0");
}
LMT_CASE(semaphore_order_isr) { run_case(body_semaphore); }

/* ---- memory pools ---- */

static void body_mempool(void)
{
    LMT_CHECK(osMemoryPoolNew(0, 4, NULL) == NULL);
    osMemoryPoolId_t mp = osMemoryPoolNew(3, 10, NULL);
    LMT_CHECK(mp != NULL);
    LMT_EQ(osMemoryPoolGetCapacity(mp), 3u);
    LMT_EQ(osMemoryPoolGetBlockSize(mp), 10u);
    void *b[3];
    for (int i = 0; i < 3; i++) {
        b[i] = osMemoryPoolAlloc(mp, 0);
        LMT_CHECK(b[i] != NULL);
    }
    LMT_EQ(osMemoryPoolGetCount(mp), 3u);
    LMT_EQ(osMemoryPoolGetSpace(mp), 0u);
    LMT_CHECK(osMemoryPoolAlloc(mp, 0) == NULL);
    LMT_CHECK(osMemoryPoolAlloc(mp, 2) == NULL);
    LMT_EQ(osMemoryPoolFree(mp, b[1]), osOK);
    LMT_EQ(osMemoryPoolFree(mp, b[1]), osErrorResource);
    LMT_EQ(osMemoryPoolFree(mp, (uint8_t *)b[0] + 1), osErrorParameter);
    LMT_EQ(osMemoryPoolFree(mp, NULL), osErrorParameter);
    LMT_EQ(osMemoryPoolGetSpace(mp), 1u);
    /* Caller memory too small for the blocks: refused. */
    static _Alignas(sizeof(void *)) uint8_t mem[LM_CMSIS_MEMPOOL_MEM_SIZE(4, 8)];
    osMemoryPoolAttr_t pa = {.mp_mem = mem, .mp_size = sizeof mem - 1u};
    LMT_CHECK(osMemoryPoolNew(4, 8, &pa) == NULL);
    pa.mp_size = sizeof mem;
    osMemoryPoolId_t mp2 = osMemoryPoolNew(4, 8, &pa);
    LMT_CHECK(mp2 != NULL);
    uint8_t *blk = osMemoryPoolAlloc(mp2, 0);
    LMT_CHECK(blk >= mem && blk < mem + sizeof mem);
    LMT_EQ(osMemoryPoolDelete(mp), osOK);
    LMT_EQ(osMemoryPoolDelete(mp), osErrorParameter);
    LMT_EQ(osMemoryPoolDelete(mp2), osOK);
    /* The pool of control blocks runs out: NULL. */
    osMemoryPoolId_t all[LM_CMSIS_MEMPOOL_COUNT];
    for (unsigned i = 0; i < LM_CMSIS_MEMPOOL_COUNT; i++) {
        all[i] = osMemoryPoolNew(1, 4, NULL);
        LMT_CHECK(all[i] != NULL);
    }
    LMT_CHECK(osMemoryPoolNew(1, 4, NULL) == NULL);
    for (unsigned i = 0; i < LM_CMSIS_MEMPOOL_COUNT; i++) {
        LMT_EQ(osMemoryPoolDelete(all[i]), osOK);
    }
}
LMT_CASE(memory_pool) { run_case(body_mempool); }

/* ---- message queues ---- */

static osMessageQueueId_t mq;
static void mq_receiver(void *arg)
{
    (void)arg;
    uint32_t v;
    uint8_t prio;
    for (int i = 0; i < 5; i++) {
        LMT_EQ(osMessageQueueGet(mq, &v, &prio, osWaitForever), osOK);
        lmt_log("%u/%u", (unsigned)v, (unsigned)prio);
    }
}

static void isr_mq(void)
{
    uint32_t v = 99;
    isr_u32 = (uint32_t)osMessageQueuePut(mq, &v, 0, 0);
    isr_i32 = osMessageQueuePut(mq, &v, 0, 5);
}

static void body_msgqueue(void)
{
    LMT_CHECK(osMessageQueueNew(0, 4, NULL) == NULL);
    mq = osMessageQueueNew(4, sizeof(uint32_t), NULL);
    LMT_CHECK(mq != NULL);
    LMT_EQ(osMessageQueueGetCapacity(mq), 4u);
    LMT_EQ(osMessageQueueGetMsgSize(mq), 4u);
    uint32_t v = 1;
    LMT_EQ(osMessageQueuePut(mq, &v, 1, 0), osOK);
    v = 2;
    LMT_EQ(osMessageQueuePut(mq, &v, 5, 0), osOK);
    v = 3;
    LMT_EQ(osMessageQueuePut(mq, &v, 1, 0), osOK);
    in_isr(isr_mq); /* 99 at priority 0 */
    LMT_EQ(isr_u32, osOK);
    LMT_EQ(isr_i32, osErrorParameter);
    LMT_EQ(osMessageQueuePut(mq, &v, 0, 0), osErrorResource); /* full */
    LMT_EQ(osMessageQueuePut(mq, &v, 0, 2), osErrorTimeout);
    LMT_EQ(osMessageQueueGetCount(mq), 4u);
    LMT_EQ(osMessageQueueGetSpace(mq), 0u);
    osThreadAttr_t a = {.priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(mq_receiver, NULL, &a) != NULL); /* takes all four, waits */
    v = 7;
    LMT_EQ(osMessageQueuePut(mq, &v, 9, 0), osOK); /* straight to the waiting receiver */
    LMT_EQ(osMessageQueueGetCount(mq), 0u);
    LMT_EQ(osMessageQueuePut(mq, &v, 9, 0), osOK);
    LMT_EQ(osMessageQueueReset(mq), osOK);
    LMT_EQ(osMessageQueueGetCount(mq), 0u);
    LMT_EQ(osMessageQueueGetSpace(mq), 4u);
    uint32_t r;
    LMT_EQ(osMessageQueueGet(mq, &r, NULL, 0), osErrorResource);
    LMT_EQ(osMessageQueueDelete(mq), osOK);
    LMT_EQ(osMessageQueueGet(mq, &r, NULL, 0), osErrorParameter);
    lmt_expect("2/5 1/1 3/1 99/0 7/9");
}
LMT_CASE(message_queue_priority) { run_case(body_msgqueue); }

/* Higher msg_prio first, FIFO among equals, over the whole range (0 and
 * 255 included); a blocked put is admitted, most urgent thread first, at
 * its own msg_prio, so it may overtake messages already queued. */
static void mq_sender(void *arg)
{
    uintptr_t a = (uintptr_t)arg;
    uint32_t v = (uint32_t)(a & 0xFFu);
    LMT_EQ(osMessageQueuePut(mq, &v, (uint8_t)(a >> 8), osWaitForever), osOK);
    lmt_log("put%u", (unsigned)v);
}

static void body_msgqueue_order(void)
{
    mq = osMessageQueueNew(4, sizeof(uint32_t), NULL);
    LMT_CHECK(mq != NULL);
    uint32_t v = 1;
    LMT_EQ(osMessageQueuePut(mq, &v, 0, 0), osOK);
    v = 2;
    LMT_EQ(osMessageQueuePut(mq, &v, 255, 0), osOK);
    v = 3;
    LMT_EQ(osMessageQueuePut(mq, &v, 128, 0), osOK);
    v = 4;
    LMT_EQ(osMessageQueuePut(mq, &v, 255, 0), osOK);
    osThreadAttr_t a = {.priority = osPriorityAboveNormal};
    LMT_CHECK(osThreadNew(mq_sender, (void *)(uintptr_t)(5u | (200u << 8)), &a) != NULL);
    a.priority = osPriorityHigh;
    LMT_CHECK(osThreadNew(mq_sender, (void *)(uintptr_t)(6u | (1u << 8)), &a) != NULL);
    LMT_EQ(osMessageQueueGetSpace(mq), 0u);
    for (int i = 0; i < 6; i++) {
        uint32_t r = 0;
        uint8_t prio = 0;
        LMT_EQ(osMessageQueueGet(mq, &r, &prio, 0), osOK);
        lmt_log("%u/%u", (unsigned)r, (unsigned)prio);
    }
    LMT_EQ(osMessageQueueGetCount(mq), 0u);
    LMT_EQ(osMessageQueueDelete(mq), osOK);
    /* The first get admits 6 (the more urgent thread's, at 1: before 1 at
     * 0), the second 5 (at 200: before 3 at 128); each sender runs before
     * the getter logs. */
    lmt_expect("put6 2/255 put5 4/255 5/200 3/128 6/1 1/0");
}
LMT_CASE(message_queue_order_and_blocked_puts) { run_case(body_msgqueue_order); }

/* A kernel started through the native API is running for the API too. */
static void body_native_start(void)
{
    LMT_EQ(osKernelGetState(), osKernelRunning);
    LMT_EQ(osKernelLock(), 0);
    LMT_EQ(osKernelUnlock(), 1);
    LMT_EQ(osKernelStart(), osError);
    LMT_EQ(osKernelInitialize(), osError);
}
LMT_CASE(kernel_started_natively)
{
    lmt_begin();
    lm_cmsis_reset();
    LMT_EQ(osKernelInitialize(), osOK);
    case_body = body_native_start;
    LMT_CHECK(osThreadNew(main_thread, NULL, NULL) != NULL);
    lmt_run();
}

/* ---- bad ids, and the calls an interrupt handler may not make ---- */

static void body_bad_ids(void)
{
    uint32_t words[2] = {0, 0};
    uint32_t word = 0;
    void *bad = &word; /* aligned memory that is no object */
    /* Misaligned: nothing may be read through it (Armv6-M faults). */
    void *odd = (uint8_t *)words + 1;
    void *ids[] = {NULL, bad, odd};
    for (unsigned i = 0; i < 3u; i++) {
        void *id = ids[i];
        LMT_CHECK(osThreadGetName(id) == NULL);
        LMT_EQ(osThreadGetState(id), osThreadError);
        LMT_EQ(osThreadGetStackSize(id), 0u);
        LMT_EQ(osThreadGetStackSpace(id), 0u);
        LMT_EQ(osThreadSetPriority(id, osPriorityNormal), osErrorParameter);
        LMT_EQ(osThreadGetPriority(id), osPriorityError);
        LMT_EQ(osThreadSuspend(id), osErrorParameter);
        LMT_EQ(osThreadResume(id), osErrorParameter);
        LMT_EQ(osThreadDetach(id), osErrorParameter);
        LMT_EQ(osThreadJoin(id), osErrorParameter);
        LMT_EQ(osThreadTerminate(id), osErrorParameter);
        LMT_EQ(osThreadSetAffinityMask(id, 0u), osErrorParameter);
        LMT_EQ(osThreadGetAffinityMask(id), 0u);
        LMT_EQ(osThreadFlagsSet(id, 1u), osFlagsErrorParameter);
        LMT_CHECK(osTimerGetName(id) == NULL);
        LMT_EQ(osTimerStart(id, 1u), osErrorParameter);
        LMT_EQ(osTimerStop(id), osErrorParameter);
        LMT_EQ(osTimerIsRunning(id), 0u);
        LMT_EQ(osTimerDelete(id), osErrorParameter);
        LMT_CHECK(osEventFlagsGetName(id) == NULL);
        LMT_EQ(osEventFlagsSet(id, 1u), osFlagsErrorParameter);
        LMT_EQ(osEventFlagsClear(id, 1u), osFlagsErrorParameter);
        LMT_EQ(osEventFlagsGet(id), 0u);
        LMT_EQ(osEventFlagsWait(id, 1u, 0u, 0u), osFlagsErrorParameter);
        LMT_EQ(osEventFlagsDelete(id), osErrorParameter);
        LMT_CHECK(osMutexGetName(id) == NULL);
        LMT_EQ(osMutexAcquire(id, 0u), osErrorParameter);
        LMT_EQ(osMutexRelease(id), osErrorParameter);
        LMT_CHECK(osMutexGetOwner(id) == NULL);
        LMT_EQ(osMutexDelete(id), osErrorParameter);
        LMT_CHECK(osSemaphoreGetName(id) == NULL);
        LMT_EQ(osSemaphoreAcquire(id, 0u), osErrorParameter);
        LMT_EQ(osSemaphoreRelease(id), osErrorParameter);
        LMT_EQ(osSemaphoreGetCount(id), 0u);
        LMT_EQ(osSemaphoreDelete(id), osErrorParameter);
        LMT_CHECK(osMemoryPoolGetName(id) == NULL);
        LMT_CHECK(osMemoryPoolAlloc(id, 0u) == NULL);
        LMT_EQ(osMemoryPoolFree(id, bad), osErrorParameter);
        LMT_EQ(osMemoryPoolGetCapacity(id), 0u);
        LMT_EQ(osMemoryPoolGetBlockSize(id), 0u);
        LMT_EQ(osMemoryPoolGetCount(id), 0u);
        LMT_EQ(osMemoryPoolGetSpace(id), 0u);
        LMT_EQ(osMemoryPoolDelete(id), osErrorParameter);
        LMT_CHECK(osMessageQueueGetName(id) == NULL);
        LMT_EQ(osMessageQueuePut(id, &word, 0u, 0u), osErrorParameter);
        LMT_EQ(osMessageQueueGet(id, &word, NULL, 0u), osErrorParameter);
        LMT_EQ(osMessageQueueGetCapacity(id), 0u);
        LMT_EQ(osMessageQueueGetMsgSize(id), 0u);
        LMT_EQ(osMessageQueueGetCount(id), 0u);
        LMT_EQ(osMessageQueueGetSpace(id), 0u);
        LMT_EQ(osMessageQueueReset(id), osErrorParameter);
        LMT_EQ(osMessageQueueDelete(id), osErrorParameter);
    }
    LMT_EQ(word, 0u); /* nothing written through a bad id */
    LMT_EQ(words[0], 0u);
    LMT_EQ(words[1], 0u);
    /* Bad attributes: a size without memory, too little memory. */
    osSemaphoreAttr_t sa = {.cb_size = 4u};
    LMT_CHECK(osSemaphoreNew(1, 0, &sa) == NULL);
    static lm_cmsis_semaphore_t scb;
    sa.cb_mem = &scb;
    sa.cb_size = sizeof scb - 1u;
    LMT_CHECK(osSemaphoreNew(1, 0, &sa) == NULL);
    sa.cb_size = sizeof scb;
    LMT_CHECK(osSemaphoreNew(1, 0, &sa) == (osSemaphoreId_t)&scb);
    LMT_EQ(osSemaphoreDelete(&scb), osOK);
    LMT_CHECK(osThreadNew(NULL, NULL, NULL) == NULL);
    LMT_EQ(osThreadFlagsWait(1u, 0x4u, 0u), osFlagsErrorParameter); /* unknown option */
    LMT_EQ(osThreadFlagsClear(0x80000000u), osFlagsErrorParameter);
    osMessageQueueAttr_t qa = {.mq_size = 16u};
    LMT_CHECK(osMessageQueueNew(1u, 4u, &qa) == NULL);
    LMT_CHECK(osMessageQueueNew(1u, LM_CMSIS_MSGQUEUE_DATA_SIZE, NULL) == NULL);
    LMT_CHECK(osMemoryPoolNew(1u, LM_CMSIS_MEMPOOL_DATA_SIZE + 1u, NULL) == NULL);
}
LMT_CASE(bad_ids_and_attributes) { run_case(body_bad_ids); }

static volatile int32_t isr_codes[16];
static void isr_thread_only(void)
{
    unsigned n = 0;
    isr_codes[n++] = osKernelStart();
    isr_codes[n++] = osKernelUnlock();
    isr_codes[n++] = osKernelRestoreLock(0);
    isr_codes[n++] = osThreadYield();
    isr_codes[n++] = osThreadResume(isr_target);
    isr_codes[n++] = osThreadDetach(isr_target);
    isr_codes[n++] = osThreadJoin(isr_target);
    isr_codes[n++] = osThreadTerminate(isr_target);
    isr_codes[n++] = osThreadSetPriority(isr_target, osPriorityLow);
    isr_codes[n++] = osDelay(1);
    isr_codes[n++] = osDelayUntil(1);
    isr_codes[n++] = osMutexAcquire(isr_ptr, 0);
    isr_codes[n++] = osMutexRelease(isr_ptr);
    isr_codes[n++] = (int32_t)osThreadFlagsWait(1u, 0u, 0u);
    isr_codes[n++] = (int32_t)osThreadFlagsClear(1u);
    isr_codes[n++] = (int32_t)(osKernelSuspend() + osThreadGetCount() +
                               osThreadEnumerate((osThreadId_t *)&isr_ptr, 1u) +
                               osThreadFlagsGet() + (osThreadGetId() != NULL ? 1u : 0u));
}

static void body_isr_rules(void)
{
    isr_target = osThreadGetId();
    isr_ptr = osMutexNew(NULL);
    in_isr(isr_thread_only);
    for (unsigned i = 0; i < 13u; i++) {
        LMT_EQ(isr_codes[i], osErrorISR);
    }
    LMT_EQ((uint32_t)isr_codes[13], osFlagsErrorISR);
    LMT_EQ((uint32_t)isr_codes[14], osFlagsErrorISR);
    LMT_EQ(isr_codes[15], 1); /* only osThreadGetId answers */
    LMT_EQ(osThreadGetState(isr_target), osThreadRunning);
}
LMT_CASE(isr_rules) { run_case(body_isr_rules); }

LMT_MAIN(LMT_RUN(kernel_info_lock_isr), LMT_RUN(kernel_suspend_resume),
         LMT_RUN(thread_priority_order), LMT_RUN(thread_states_resume_join),
         LMT_RUN(thread_registry_detach_terminate), LMT_RUN(thread_pool_exhaustion),
         LMT_RUN(thread_name_stack_size), LMT_RUN(thread_join_slot_reused),
         LMT_RUN(native_thread_not_cmsis), LMT_RUN(thread_exit_locked),
         LMT_RUN(thread_joiner_terminated),
         LMT_RUN(thread_flags), LMT_RUN(generic_wait_exact_ticks),
         LMT_RUN(timers_in_service_thread), HOSTED_CASE(timer_expiries_dropped)
         LMT_RUN(event_flags),
         LMT_RUN(mutex_inherit_recursive_robust), LMT_RUN(semaphore_order_isr),
         LMT_RUN(memory_pool), LMT_RUN(message_queue_priority),
         LMT_RUN(message_queue_order_and_blocked_puts),
         LMT_RUN(bad_ids_and_attributes), LMT_RUN(isr_rules), LMT_RUN(kernel_started_natively))
