/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CMSIS-RTOS2 API 2.3 functional-safety calls against the API's
 * definition, built with LM_CMSIS_FUSA: safety classes on threads and
 * objects and the osErrorSafetyClass rule, osKernelProtect,
 * osThreadSuspendClass/ResumeClass and their modes, osKernelDestroyClass,
 * thread watchdogs (the order and context of osWatchdogAlarm_Handler, its
 * re-arm), MPU zones (osZoneSetup_Callback at switches), the termination
 * of a zone, osThreadProtectPrivileged; calls from interrupt handlers.
 * Built without LM_CMSIS_FUSA, one case: every call refuses.
 * Each case runs its body in a CMSIS thread "M" (osPriorityNormal, safety
 * class 4, zone 1) and ends the run with finish().
 */
#include <string.h>
#include "harness.h"
#include "cmsis_os2.h"
#include "lm_cmsis.h"
#include "limen/port.h"

/* ---- running a case ---- */

static void (*case_body)(void);
static void (*before_start)(void);

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

static osThreadId_t main_id;

static void run_case2(void (*body)(void), void (*setup)(void))
{
    lmt_begin();
    lm_cmsis_reset();
#if LM_CMSIS_FUSA
    LMT_EQ(osKernelProtect(0u), osError); /* inactive */
    LMT_EQ(osThreadProtectPrivileged(), osError);
#endif
    LMT_EQ(osKernelInitialize(), osOK);
    case_body = body;
    before_start = setup;
    static const osThreadAttr_t attr = {
        .name = "M", .priority = osPriorityNormal,
        .attr_bits = osSafetyClass(4u) | osThreadZone(1u)};
    main_id = osThreadNew(main_thread, NULL, &attr);
    LMT_CHECK(main_id != NULL);
    if (before_start != NULL) {
        before_start();
    }
    LMT_EQ(osKernelStart(), osOK);
}

static void run_case(void (*body)(void))
{
    run_case2(body, NULL);
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

static volatile uint32_t isr_r[8];

#if LM_CMSIS_FUSA

static lm_thread_state_t kstate(osThreadId_t id)
{
    return lm_thread_state(lm_cmsis_thread(id));
}

static void block_forever(void *arg)
{
    (void)arg;
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}

static osThreadId_t spawn(const char *name, uint32_t bits, osPriority_t prio)
{
    const osThreadAttr_t a = {.name = name, .attr_bits = bits, .priority = prio};
    return osThreadNew(block_forever, NULL, &a);
}

/* ---- classes of threads and objects ---- */

/* Created by main() before osKernelStart: any class may be. */
static osThreadId_t hi_thread;
static osEventFlagsId_t hi_ef;
static osTimerId_t hi_timer;
static osMutexId_t hi_mutex;
static osSemaphoreId_t hi_sem;
static osMemoryPoolId_t hi_pool;
static osMessageQueueId_t hi_mq;

static void tick_fn(void *arg)
{
    (void)arg;
}

static void setup_high(void)
{
    hi_thread = spawn("H", osSafetyClass(6u), osPriorityAboveNormal);
    LMT_CHECK(hi_thread != NULL);
    const uint32_t c6 = osSafetyClass(6u);
    const osEventFlagsAttr_t ea = {.attr_bits = c6};
    const osTimerAttr_t ta = {.attr_bits = c6};
    const osMutexAttr_t ma = {.attr_bits = c6 | osMutexRecursive};
    const osSemaphoreAttr_t sa = {.attr_bits = c6};
    const osMemoryPoolAttr_t pa = {.attr_bits = c6};
    const osMessageQueueAttr_t qa = {.attr_bits = c6};
    hi_ef = osEventFlagsNew(&ea);
    hi_timer = osTimerNew(tick_fn, osTimerOnce, NULL, &ta);
    hi_mutex = osMutexNew(&ma);
    hi_sem = osSemaphoreNew(2u, 1u, &sa);
    hi_pool = osMemoryPoolNew(2u, 8u, &pa);
    hi_mq = osMessageQueueNew(2u, 4u, &qa);
    LMT_CHECK(hi_ef != NULL && hi_timer != NULL && hi_mutex != NULL && hi_sem != NULL &&
              hi_pool != NULL && hi_mq != NULL);
}

static void isr_on_high(void)
{
    /* An interrupt handler has no class: not checked. */
    isr_r[0] = (uint32_t)osSemaphoreRelease(hi_sem);
    isr_r[1] = osThreadFlagsSet(hi_thread, 2u);
    isr_r[2] = osEventFlagsSet(hi_ef, 1u);
}

static void body_classes(void)
{
    LMT_EQ(osThreadGetClass(main_id), 4u);
    LMT_EQ(osThreadGetClass(hi_thread), 6u);
    LMT_EQ(osThreadGetClass(NULL), osErrorId);
    uint32_t word = 0;
    LMT_EQ(osThreadGetClass(&word), osErrorId);

    /* A thread acts on objects of its class or lower only. */
    LMT_EQ(osThreadSetPriority(hi_thread, osPriorityLow), osErrorSafetyClass);
    LMT_EQ(osThreadGetPriority(hi_thread), osPriorityAboveNormal); /* intact */
    LMT_EQ(osThreadSuspend(hi_thread), osErrorSafetyClass);
    LMT_EQ(osThreadResume(hi_thread), osErrorSafetyClass);
    LMT_EQ(osThreadDetach(hi_thread), osErrorSafetyClass);
    LMT_EQ(osThreadJoin(hi_thread), osErrorSafetyClass);
    LMT_EQ(osThreadTerminate(hi_thread), osErrorSafetyClass);
    LMT_EQ(osThreadSetAffinityMask(hi_thread, 1u), osErrorSafetyClass);
    LMT_EQ(osThreadFlagsSet(hi_thread, 1u), osFlagsErrorSafetyClass);
    LMT_EQ(osThreadGetState(hi_thread), osThreadBlocked); /* still waiting */
    /* A bad argument is reported before the class. */
    LMT_EQ(osThreadSetPriority(hi_thread, osPriorityISR), osErrorParameter);

    LMT_EQ(osEventFlagsSet(hi_ef, 1u), osFlagsErrorSafetyClass);
    LMT_EQ(osEventFlagsClear(hi_ef, 1u), osFlagsErrorSafetyClass);
    LMT_EQ(osEventFlagsWait(hi_ef, 1u, osFlagsWaitAny, 0u), osFlagsErrorSafetyClass);
    LMT_EQ(osEventFlagsDelete(hi_ef), osErrorSafetyClass);
    LMT_EQ(osEventFlagsGet(hi_ef), 0u); /* reading is not checked */
    LMT_EQ(osTimerStart(hi_timer, 5u), osErrorSafetyClass);
    LMT_EQ(osTimerIsRunning(hi_timer), 0u);
    LMT_EQ(osTimerStop(hi_timer), osErrorSafetyClass);
    LMT_EQ(osTimerDelete(hi_timer), osErrorSafetyClass);
    LMT_EQ(osMutexAcquire(hi_mutex, 0u), osErrorSafetyClass);
    LMT_CHECK(osMutexGetOwner(hi_mutex) == NULL);
    LMT_EQ(osMutexDelete(hi_mutex), osErrorSafetyClass);
    LMT_EQ(osSemaphoreAcquire(hi_sem, 0u), osErrorSafetyClass);
    LMT_EQ(osSemaphoreRelease(hi_sem), osErrorSafetyClass);
    LMT_EQ(osSemaphoreGetCount(hi_sem), 1u);
    LMT_EQ(osSemaphoreDelete(hi_sem), osErrorSafetyClass);
    LMT_CHECK(osMemoryPoolAlloc(hi_pool, 0u) == NULL);
    LMT_EQ(osMemoryPoolGetCount(hi_pool), 0u);
    uint32_t blk[2];
    LMT_EQ(osMemoryPoolFree(hi_pool, blk), osErrorSafetyClass);
    LMT_EQ(osMemoryPoolDelete(hi_pool), osErrorSafetyClass);
    uint32_t msg = 7u;
    LMT_EQ(osMessageQueuePut(hi_mq, &msg, 0u, 0u), osErrorSafetyClass);
    LMT_EQ(osMessageQueueGet(hi_mq, &msg, NULL, 0u), osErrorSafetyClass);
    LMT_EQ(osMessageQueueReset(hi_mq), osErrorSafetyClass);
    LMT_EQ(osMessageQueueDelete(hi_mq), osErrorSafetyClass);
    LMT_EQ(osMessageQueueGetCount(hi_mq), 0u);

    /* No thread of class 4 creates an object of class 5; of 4 or lower it
     * may, and without a class an object takes the creator's. */
    const osEventFlagsAttr_t e5 = {.attr_bits = osSafetyClass(5u)};
    const osEventFlagsAttr_t e3 = {.attr_bits = osSafetyClass(3u)};
    LMT_CHECK(osEventFlagsNew(&e5) == NULL);
    const osSemaphoreAttr_t s5 = {.attr_bits = osSafetyClass(5u)};
    LMT_CHECK(osSemaphoreNew(1u, 0u, &s5) == NULL);
    const osMutexAttr_t m5 = {.attr_bits = osSafetyClass(5u)};
    LMT_CHECK(osMutexNew(&m5) == NULL);
    const osTimerAttr_t t5 = {.attr_bits = osSafetyClass(5u)};
    LMT_CHECK(osTimerNew(tick_fn, osTimerOnce, NULL, &t5) == NULL);
    const osMemoryPoolAttr_t p5 = {.attr_bits = osSafetyClass(5u)};
    LMT_CHECK(osMemoryPoolNew(1u, 8u, &p5) == NULL);
    const osMessageQueueAttr_t q5 = {.attr_bits = osSafetyClass(5u)};
    LMT_CHECK(osMessageQueueNew(1u, 4u, &q5) == NULL);
    LMT_CHECK(spawn("X", osSafetyClass(5u), osPriorityLow) == NULL);
    osEventFlagsId_t ef3 = osEventFlagsNew(&e3);
    osEventFlagsId_t ef4 = osEventFlagsNew(NULL);
    LMT_CHECK(ef3 != NULL && ef4 != NULL);
    LMT_EQ(osEventFlagsSet(ef3, 1u), 1u);
    LMT_EQ(osEventFlagsSet(ef4, 2u), 2u);
    osThreadId_t low = spawn("L", 0u, osPriorityLow); /* inherits class 4 */
    LMT_EQ(osThreadGetClass(low), 4u);
    LMT_EQ(osThreadTerminate(low), osOK);

    /* From an interrupt handler, no check. */
    in_isr(isr_on_high);
    LMT_EQ(isr_r[0], (uint32_t)osOK);
    LMT_EQ(isr_r[1], 2u);
    LMT_EQ(isr_r[2], 1u);
    LMT_EQ(osSemaphoreGetCount(hi_sem), 2u);
}
LMT_CASE(fusa_classes) { run_case2(body_classes, setup_high); }

/* ---- osKernelProtect ---- */

static volatile int32_t low_r[8];

static void low_kernel_calls(void *arg)
{
    (void)arg;
    low_r[0] = osKernelLock();
    low_r[1] = osKernelUnlock();
    low_r[2] = osKernelRestoreLock(0);
    low_r[3] = (int32_t)osKernelSuspend();
    low_r[4] = osKernelProtect(0u);
    low_r[5] = osKernelDestroyClass(0u, osSafetyWithSameClass);
    low_r[6] = osKernelGetState();
}

static void isr_protect(void)
{
    isr_r[0] = (uint32_t)osKernelProtect(0u);
}

static void body_protect(void)
{
    LMT_EQ(osKernelProtect(16u), osErrorParameter);
    in_isr(isr_protect);
    LMT_EQ(isr_r[0], (uint32_t)osErrorISR);
    LMT_EQ(osKernelProtect(4u), osOK);
    LMT_EQ(osKernelLock(), 0); /* class 4 may */
    LMT_EQ(osKernelUnlock(), 1);
    const osThreadAttr_t a = {.name = "L", .attr_bits = osSafetyClass(2u),
                              .priority = osPriorityHigh};
    LMT_CHECK(osThreadNew(low_kernel_calls, NULL, &a) != NULL); /* runs at once */
    LMT_EQ(low_r[0], osErrorSafetyClass);
    LMT_EQ(low_r[1], osErrorSafetyClass);
    LMT_EQ(low_r[2], osErrorSafetyClass);
    LMT_EQ(low_r[3], 0);
    LMT_EQ(low_r[4], osErrorSafetyClass);
    LMT_EQ(low_r[5], osErrorSafetyClass);
    LMT_EQ(low_r[6], osKernelRunning); /* nothing was locked or suspended */
    /* Raising the bar above one's own class shuts oneself out too. */
    LMT_EQ(osKernelProtect(5u), osOK);
    LMT_EQ(osKernelLock(), osErrorSafetyClass);
    LMT_EQ(osKernelProtect(4u), osErrorSafetyClass);
}
LMT_CASE(fusa_kernel_protect) { run_case(body_protect); }

/* ---- osThreadSuspendClass, osThreadResumeClass ---- */

static osThreadId_t c1, c2, c3, c3b;
static volatile uint32_t self_r;
static volatile unsigned runs[4];

/* Counts the flags it is sent: a suspended thread counts none. */
static void counter(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    for (;;) {
        (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
        runs[i]++;
    }
}

static osThreadId_t spawn_counter(unsigned i, unsigned cls)
{
    const osThreadAttr_t a = {.attr_bits = osSafetyClass(cls), .priority = osPriorityAboveNormal};
    return osThreadNew(counter, (void *)(uintptr_t)i, &a);
}

static void suspend_own_class(void *arg)
{
    (void)arg;
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
    self_r = (uint32_t)osThreadSuspendClass(3u, osSafetyWithSameClass);
    self_r |= 0x100u; /* resumed */
}

static void isr_class_calls(void)
{
    isr_r[0] = (uint32_t)osThreadSuspendClass(1u, osSafetyWithSameClass);
    isr_r[1] = (uint32_t)osThreadResumeClass(1u, osSafetyWithSameClass);
    isr_r[2] = (uint32_t)osKernelDestroyClass(1u, osSafetyWithSameClass);
}

static void kick(void)
{
    (void)osThreadFlagsSet(c1, 1u);
    (void)osThreadFlagsSet(c2, 1u);
    (void)osThreadFlagsSet(c3, 1u);
}

static void body_suspend_class(void)
{
    memset((void *)runs, 0, sizeof runs);
    c1 = spawn_counter(1u, 1u);
    c2 = spawn_counter(2u, 2u);
    c3 = spawn_counter(3u, 3u);
    const osThreadAttr_t a = {.name = "C3b", .attr_bits = osSafetyClass(3u),
                              .priority = osPriorityAboveNormal};
    c3b = osThreadNew(suspend_own_class, NULL, &a);
    LMT_CHECK(c1 != NULL && c2 != NULL && c3 != NULL && c3b != NULL);

    LMT_EQ(osThreadSuspendClass(16u, osSafetyWithSameClass), osErrorParameter);
    LMT_EQ(osThreadSuspendClass(1u, 0u), osErrorParameter);
    LMT_EQ(osThreadSuspendClass(1u, 4u), osErrorParameter);
    LMT_EQ(osThreadResumeClass(16u, osSafetyWithLowerClass), osErrorParameter);
    LMT_EQ(osThreadResumeClass(1u, 0u), osErrorParameter);
    LMT_EQ(osThreadSuspendClass(5u, osSafetyWithSameClass), osErrorSafetyClass);
    LMT_EQ(osThreadResumeClass(5u, osSafetyWithSameClass | osSafetyWithLowerClass),
           osErrorSafetyClass);
    LMT_EQ(osThreadSuspendClass(0u, osSafetyWithLowerClass), osOK); /* none */
    in_isr(isr_class_calls);
    LMT_EQ(isr_r[0], (uint32_t)osErrorISR);
    LMT_EQ(isr_r[1], (uint32_t)osErrorISR);
    LMT_EQ(isr_r[2], (uint32_t)osErrorISR);
    kick();
    LMT_CHECK(runs[1] == 1u && runs[2] == 1u && runs[3] == 1u);

    /* Class 2 and lower: C1, C2; not C3. A waiting thread ends its wait
     * and then stays suspended. */
    LMT_EQ(osThreadSuspendClass(2u, osSafetyWithSameClass | osSafetyWithLowerClass), osOK);
    kick();
    LMT_CHECK(runs[1] == 1u && runs[2] == 1u && runs[3] == 2u);
    LMT_EQ(kstate(c1), LM_THREAD_SUSPENDED);
    LMT_EQ(kstate(c2), LM_THREAD_SUSPENDED);
    /* Lower than 2 only: C1. */
    LMT_EQ(osThreadResumeClass(2u, osSafetyWithLowerClass), osOK);
    LMT_CHECK(runs[1] == 2u && runs[2] == 1u);
    LMT_EQ(osThreadResumeClass(2u, osSafetyWithSameClass), osOK);
    LMT_CHECK(runs[1] == 2u && runs[2] == 2u);
    /* Resuming does not end a wait. */
    LMT_EQ(osThreadResumeClass(3u, osSafetyWithSameClass | osSafetyWithLowerClass), osOK);
    LMT_EQ(kstate(c1), LM_THREAD_BLOCKED);
    LMT_CHECK(runs[1] == 2u && runs[2] == 2u && runs[3] == 2u);

    /* A thread of class 3 suspends class 3: the other, then itself. */
    LMT_EQ(osThreadFlagsSet(c3b, 1u), 0u); /* it runs at once and takes the flag */
    LMT_EQ(kstate(c3b), LM_THREAD_SUSPENDED);
    LMT_EQ(self_r, 0u);
    kick();
    LMT_CHECK(runs[1] == 3u && runs[2] == 3u && runs[3] == 2u);
    LMT_EQ(osThreadResumeClass(3u, osSafetyWithSameClass), osOK);
    LMT_EQ(self_r, 0x100u | (uint32_t)osOK); /* ran on, its call returned osOK */
    LMT_EQ(runs[3], 3u);
}
LMT_CASE(fusa_suspend_resume_class) { run_case(body_suspend_class); }

/* ---- osKernelDestroyClass ---- */

static void body_destroy_class(void)
{
    osThreadId_t d1 = spawn("D1", osSafetyClass(1u), osPriorityAboveNormal);
    const osThreadAttr_t ja = {.name = "J2", .attr_bits = osSafetyClass(2u) | osThreadJoinable,
                               .priority = osPriorityAboveNormal};
    osThreadId_t j2 = osThreadNew(block_forever, NULL, &ja);
    osThreadId_t d3 = spawn("D3", osSafetyClass(3u), osPriorityAboveNormal);
    LMT_CHECK(d1 != NULL && j2 != NULL && d3 != NULL);
    LMT_EQ(osThreadGetCount(), 5u); /* M and the three, and "H" below */
    LMT_EQ(osKernelDestroyClass(16u, osSafetyWithSameClass), osErrorParameter);
    LMT_EQ(osKernelDestroyClass(5u, osSafetyWithSameClass), osErrorSafetyClass);
    LMT_EQ(osKernelDestroyClass(2u, osSafetyWithSameClass | osSafetyWithLowerClass), osOK);
    LMT_EQ(osThreadGetState(d1), osThreadError);      /* detached: forgotten */
    LMT_EQ(osThreadGetState(j2), osThreadTerminated); /* joinable: until joined */
    LMT_EQ(osThreadGetState(d3), osThreadBlocked);
    LMT_EQ(osThreadJoin(j2), osOK);
    LMT_EQ(osThreadGetCount(), 3u);
}
static void setup_one_more(void)
{
    LMT_CHECK(spawn("H", osSafetyClass(6u), osPriorityAboveNormal) != NULL);
}
LMT_CASE(fusa_destroy_class) { run_case2(body_destroy_class, setup_one_more); }

/* ---- thread watchdogs ---- */

#define ALARMS 8
static struct {
    osThreadId_t id;
    uint32_t tick;
    uint32_t in_isr;
    uint32_t suspend_r;
} alarm_log[ALARMS];
static volatile unsigned alarms;
static osThreadId_t w1, w2;
static volatile unsigned w2_alarms;

uint32_t osWatchdogAlarm_Handler(osThreadId_t thread_id)
{
    unsigned n = alarms;
    uint32_t again = 0u;
    if (n < ALARMS) {
        alarm_log[n].id = thread_id;
        alarm_log[n].tick = osKernelGetTickCount();
        alarm_log[n].in_isr = lm_port_in_isr() ? 1u : 0u;
        alarm_log[n].suspend_r = 0xFFu;
        if (thread_id == w1) {
            /* Legal in this handler, and in no other. */
            alarm_log[n].suspend_r = (uint32_t)osThreadSuspendClass(1u, osSafetyWithSameClass);
        }
        alarms = n + 1u;
    }
    if (thread_id == w2 && w2_alarms++ == 0u) {
        again = 3u;
    }
    return again;
}

static void feeder(void *arg)
{
    uint32_t ticks = (uint32_t)(uintptr_t)arg;
    LMT_EQ(osThreadFeedWatchdog(ticks), osOK);
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}

static void isr_feed(void)
{
    isr_r[0] = (uint32_t)osThreadFeedWatchdog(5u);
}

static void body_watchdog(void)
{
    in_isr(isr_feed);
    LMT_EQ(isr_r[0], (uint32_t)osErrorISR);
    LMT_EQ(osThreadFeedWatchdog(LM_TICK_MAX_TIMEOUT + 1u), osErrorParameter);
    LMT_EQ(osDelay(1u), osOK); /* at the start of a tick */
    uint32_t t0 = osKernelGetTickCount();
    const osThreadAttr_t aa = {.name = "WA", .attr_bits = osSafetyClass(2u),
                               .priority = osPriorityAboveNormal};
    const osThreadAttr_t a2 = {.name = "W2", .attr_bits = osSafetyClass(3u),
                               .priority = osPriorityAboveNormal};
    const osThreadAttr_t a1 = {.name = "W1", .attr_bits = osSafetyClass(1u),
                               .priority = osPriorityAboveNormal};
    /* Armed (and registered) in the order classes 2, 3, 1: neither that
     * order nor its reverse is the order of classes. */
    osThreadId_t wa = osThreadNew(feeder, (void *)(uintptr_t)5u, &aa);
    w2 = osThreadNew(feeder, (void *)(uintptr_t)5u, &a2);
    w1 = osThreadNew(feeder, (void *)(uintptr_t)5u, &a1);
    LMT_CHECK(wa != NULL && w1 != NULL && w2 != NULL);
    LMT_EQ(osKernelGetTickCount(), t0);
    LMT_EQ(osDelay(20u), osOK);
    /* Same tick: the highest class first; W2 re-armed for 3 ticks once. */
    LMT_EQ(alarms, 4u);
    LMT_CHECK(alarm_log[0].id == w2);
    LMT_EQ(alarm_log[0].tick, t0 + 5u);
    LMT_CHECK(alarm_log[1].id == wa);
    LMT_EQ(alarm_log[1].tick, t0 + 5u);
    LMT_CHECK(alarm_log[2].id == w1);
    LMT_EQ(alarm_log[2].tick, t0 + 5u);
    LMT_CHECK(alarm_log[3].id == w2);
    LMT_EQ(alarm_log[3].tick, t0 + 8u);
    for (unsigned i = 0; i < 4u; i++) {
        LMT_EQ(alarm_log[i].in_isr, 1u); /* called from the tick's interrupt context */
    }
    LMT_EQ(alarm_log[2].suspend_r, (uint32_t)osOK);
    /* W1 was suspended in its wait: sent its flag, it does not run on. */
    LMT_EQ(osThreadFlagsSet(w1, 1u), 0u);
    LMT_EQ(osThreadGetState(w1), osThreadBlocked);
    LMT_EQ(kstate(w1), LM_THREAD_SUSPENDED);
    LMT_EQ(kstate(w2), LM_THREAD_BLOCKED);
    LMT_EQ(kstate(wa), LM_THREAD_BLOCKED);
}
LMT_CASE(fusa_watchdog_order) { run_case(body_watchdog); }

static void feed_twice(void *arg)
{
    (void)arg;
    LMT_EQ(osThreadFeedWatchdog(3u), osOK);
    LMT_EQ(osDelay(2u), osOK);
    LMT_EQ(osThreadFeedWatchdog(3u), osOK); /* expires 5 ticks after the first */
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}

static void feed_stop(void *arg)
{
    (void)arg;
    LMT_EQ(osThreadFeedWatchdog(2u), osOK);
    LMT_EQ(osThreadFeedWatchdog(0u), osOK); /* stopped */
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}

static void feed_exit(void *arg)
{
    (void)arg;
    LMT_EQ(osThreadFeedWatchdog(2u), osOK); /* ends: its watchdog with it */
}

static osThreadId_t service_id;
static volatile uint32_t service_feed;

/* A timer callback runs in the timer service thread, which has a
 * watchdog too, though it is no registered thread. */
static void feed_in_callback(void *arg)
{
    (void)arg;
    service_id = osThreadGetId();
    service_feed = (uint32_t)osThreadFeedWatchdog(2u);
}

static void body_watchdog_feed(void)
{
    osTimerId_t tm = osTimerNew(feed_in_callback, osTimerOnce, NULL, NULL);
    LMT_CHECK(tm != NULL);
    LMT_EQ(osDelay(1u), osOK);
    uint32_t t0 = osKernelGetTickCount();
    LMT_EQ(osTimerStart(tm, 1u), osOK);
    const osThreadAttr_t a = {.priority = osPriorityAboveNormal};
    osThreadId_t tw = osThreadNew(feed_twice, NULL, &a);
    LMT_CHECK(tw != NULL);
    LMT_CHECK(osThreadNew(feed_stop, NULL, &a) != NULL);
    LMT_CHECK(osThreadNew(feed_exit, NULL, &a) != NULL);
    LMT_EQ(osDelay(10u), osOK);
    LMT_EQ(service_feed, (uint32_t)osOK);
    LMT_CHECK(service_id != NULL);
    LMT_EQ(alarms, 2u);
    LMT_CHECK(alarm_log[0].id == service_id);
    LMT_EQ(alarm_log[0].tick, t0 + 3u);
    LMT_CHECK(alarm_log[1].id == tw);
    LMT_EQ(alarm_log[1].tick, t0 + 5u);
}
LMT_CASE(fusa_watchdog_feed_stop_exit)
{
    alarms = 0u;
    w1 = NULL;
    w2 = NULL;
    run_case(body_watchdog_feed);
}

/* ---- MPU zones ---- */

static uint32_t zone_log[8];
static volatile unsigned zones;

void osZoneSetup_Callback(uint32_t zone)
{
    if (zones < 8u) {
        zone_log[zones] = zone;
    }
    zones++;
}

static osThreadId_t inherited;

static void zone2_body(void *arg)
{
    (void)arg;
    const osThreadAttr_t a = {.name = "Z2i", .priority = osPriorityLow};
    inherited = osThreadNew(block_forever, NULL, &a);
    (void)osThreadFlagsWait(1u, osFlagsWaitAny, osWaitForever);
}

static void isr_zone(void)
{
    isr_r[0] = (uint32_t)osThreadTerminateZone(2u);
    isr_r[1] = (uint32_t)lm_cmsis_terminate_zone(2u);
}

static void body_zones(void)
{
    /* The timer service thread (no zone) ran first, then M: zone 1. */
    LMT_EQ(zones, 1u);
    LMT_EQ(zone_log[0], 1u);
    LMT_EQ(osThreadGetZone(main_id), 1u);
    LMT_EQ(osThreadGetZone(NULL), osErrorId);

    const osThreadAttr_t a2 = {.name = "Z2", .attr_bits = osThreadZone(2u),
                               .priority = osPriorityAboveNormal};
    osThreadId_t z2 = osThreadNew(zone2_body, NULL, &a2); /* runs, blocks */
    LMT_CHECK(z2 != NULL && inherited != NULL);
    LMT_EQ(osThreadGetZone(z2), 2u);
    LMT_EQ(osThreadGetZone(inherited), 2u);
    osThreadId_t z1 = spawn("Z1", osThreadZone(1u), osPriorityAboveNormal);
    osThreadId_t zn = spawn("Zn", 0u, osPriorityAboveNormal); /* M's zone: 1 */
    LMT_CHECK(z1 != NULL && zn != NULL);
    LMT_EQ(osThreadGetZone(zn), 1u);
    /* M (1) -> Z2 (2) -> M (1); Z1, Zn: same zone as M, no call. */
    LMT_EQ(zones, 3u);
    LMT_EQ(zone_log[1], 2u);
    LMT_EQ(zone_log[2], 1u);

    /* osThreadTerminateZone is for fault handlers. */
    LMT_EQ(osThreadTerminateZone(2u), osError);
    in_isr(isr_zone);
    LMT_EQ(isr_r[0], (uint32_t)osErrorISR);
    LMT_EQ(isr_r[1], (uint32_t)osErrorISR);
    LMT_EQ(lm_cmsis_terminate_zone(64u), osErrorParameter);
    LMT_EQ(lm_cmsis_terminate_zone(2u), osOK);
    LMT_EQ(osThreadGetState(z2), osThreadError); /* detached: forgotten */
    LMT_EQ(osThreadGetState(inherited), osThreadError);
    LMT_EQ(osThreadGetState(z1), osThreadBlocked);
    LMT_EQ(zones, 3u);
}
LMT_CASE(fusa_zones)
{
    zones = 0u;
    inherited = NULL;
    run_case(body_zones);
}

/* ---- osThreadProtectPrivileged ---- */

static void isr_priv(void)
{
    isr_r[0] = (uint32_t)osThreadProtectPrivileged();
    isr_r[1] = (uint32_t)osThreadFeedWatchdog(0u);
}

static void body_privileged(void)
{
    LMT_CHECK(spawn("P1", osThreadPrivileged, osPriorityLow) != NULL);
    in_isr(isr_priv);
    LMT_EQ(isr_r[0], (uint32_t)osErrorISR);
    LMT_EQ(isr_r[1], (uint32_t)osErrorISR);
    LMT_EQ(osThreadProtectPrivileged(), osOK);
    LMT_CHECK(spawn("P2", osThreadPrivileged, osPriorityLow) == NULL);
    LMT_CHECK(spawn("U", osThreadUnprivileged, osPriorityLow) != NULL);
    LMT_CHECK(spawn("D", 0u, osPriorityLow) != NULL);
    osFaultResume(); /* returns: see docs/cmsis-rtos2.md */
}
LMT_CASE(fusa_protect_privileged) { run_case(body_privileged); }

LMT_MAIN(LMT_RUN(fusa_classes), LMT_RUN(fusa_kernel_protect),
         LMT_RUN(fusa_suspend_resume_class), LMT_RUN(fusa_destroy_class),
         LMT_RUN(fusa_watchdog_order), LMT_RUN(fusa_watchdog_feed_stop_exit),
         LMT_RUN(fusa_zones), LMT_RUN(fusa_protect_privileged))

#else /* !LM_CMSIS_FUSA */

static void isr_off(void)
{
    isr_r[0] = (uint32_t)osThreadSuspendClass(0u, osSafetyWithSameClass);
}

static void body_off(void)
{
    uint32_t word = 0;
    in_isr(isr_off);
    LMT_EQ(isr_r[0], (uint32_t)osError);
    LMT_EQ(osKernelProtect(0u), osError);
    LMT_EQ(osKernelDestroyClass(0u, osSafetyWithSameClass), osError);
    LMT_EQ(osThreadSuspendClass(0u, osSafetyWithSameClass), osError);
    LMT_EQ(osThreadResumeClass(0u, osSafetyWithSameClass), osError);
    LMT_EQ(osThreadTerminateZone(0u), osError);
    LMT_EQ(lm_cmsis_terminate_zone(0u), osError);
    LMT_EQ(osThreadFeedWatchdog(1u), osError);
    LMT_EQ(osThreadProtectPrivileged(), osError);
    LMT_EQ(osThreadGetClass(main_id), osErrorId);
    LMT_EQ(osThreadGetZone(&word), osErrorId);
    osFaultResume();
    /* The class bits are ignored: an object of class 15 is created and used. */
    const osSemaphoreAttr_t s15 = {.attr_bits = osSafetyClass(15u)};
    osSemaphoreId_t s = osSemaphoreNew(1u, 1u, &s15);
    LMT_CHECK(s != NULL);
    LMT_EQ(osSemaphoreAcquire(s, 0u), osOK);
}
LMT_CASE(fusa_off_calls_refuse) { run_case(body_off); }

LMT_MAIN(LMT_RUN(fusa_off_calls_refuse))

#endif
