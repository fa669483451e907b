/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Software timers in the model, from docs/rules.md only (R8.5, R9.4, R9.5,
 * R10.2). A timer's expiry is a timeout like a thread's: due ones are
 * processed in deadline order, and on the same tick in the order armed
 * (md_first_due). A periodic timer is armed again when its expiry is
 * processed, `period` ticks after the deadline it had (no drift, R10.2), so
 * its place among timeouts due on its next deadline is that of something
 * armed at that moment. The callback (R9.5) appends (timer, tick) to the
 * event log and then does its action, as a handler would (R12.1).
 */
#include "model.h"

static void timer_arm(struct md *m, int k, uint32_t deadline)
{
    m->tm[k].armed = true;
    m->tm[k].deadline = deadline;
    m->tm[k].arm_seq = md_next_arm_seq(m);
}

int md_timer_start(struct md *m, int k, uint32_t delay, uint32_t period, int action)
{
    /* (Re)start: the first expiry `delay` ticks from now (R8.2), armed now. */
    m->tm[k].active = true;
    m->tm[k].period = period;
    m->tm[k].action = action;
    timer_arm(m, k, m->time + delay);
    return MD_OK;
}

int md_timer_stop(struct md *m, int k)
{
    if (!m->tm[k].active) {
        return MD_STATE;
    }
    m->tm[k].active = false;
    m->tm[k].armed = false;
    return MD_OK;
}

bool md_timer_active(const struct md *m, int k)
{
    return m->tm[k].active;
}

/* Nothing could ever run again but a timer callback: every thread is
 * suspended or not live, and none waits. */
static bool all_suspended(const struct md *m)
{
    for (int i = 0; i < m->n; i++) {
        if (m->t[i].state != MD_SUSPENDED && md_live(m, i)) {
            return false;
        }
    }
    return true;
}

void md_timer_fire(struct md *m, int k)
{
    struct md_timer *tm = &m->tm[k];
    if (tm->period != 0u) {
        timer_arm(m, k, tm->deadline + tm->period); /* R10.2 */
    } else {
        tm->armed = false;
        tm->active = false;
    }
    m->log[m->nlog % MD_LOG] = (struct md_log_entry){k, m->time};
    m->nlog++;
    m->n_fires++;
    m->tm_status = MD_OK;
    if (tm->action >= 0 && tm->action < MD_SEMS) {
        m->tm_status = md_sem_give(m, tm->action);
    } else if (tm->action >= MD_SEMS) {
        m->tm_status = md_resume(m, tm->action - MD_SEMS);
    }
    /* The driver's rule, not the kernel's: a periodic timer stops itself
     * once only timers could ever run, so that a run still ends. */
    m->tm_stopped_self = tm->active && all_suspended(m);
    if (m->tm_stopped_self) {
        (void)md_timer_stop(m, k);
    }
}
