/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event recorder (LM_CFG_TRACE, include/limen/trace.h, docs/trace.md).
 *
 * The buffer is the file: a header, the registry of names, then the ring
 * of records. A record's slot and timestamp are taken together under the
 * kernel lock, so slots are in timestamp order even when an interrupt
 * records in between; the record's other words are written after the
 * lock drops. Every function here costs O(1) except lm_trace_name, which
 * scans the registry.
 */
#include <string.h>
#include "lmk.h"

#if LM_CFG_TRACE

struct lmk_trace_entry {
    uint32_t addr;  /* object address (low 32 bits), event id or irq number */
    uint32_t bytes; /* the object's size: records naming an address inside it */
    uint8_t kind;   /* lm_trace_kind_t */
    uint8_t reserved[3];
    char name[LM_TRACE_NAME_BYTES];
};

struct lmk_trace_record {
    uint32_t ts;
    uint8_t type;
    uint8_t arg;
    uint16_t h;
    uint32_t a;
    uint32_t b;
};

_Static_assert(sizeof(struct lmk_trace_record) == LM_TRACE_RECORD_BYTES, "record layout");
_Static_assert(sizeof(struct lmk_trace_entry) == 32u, "registry entry layout");
_Static_assert(sizeof(lm_trace_header_t) == 52u, "header layout");

/* Global, not static: a debugger finds the buffer through this symbol
 * (its first word points at the header; docs/trace.md, `limen trace read`). */
struct lmk_trace_state {
    lm_trace_header_t *hdr; /* NULL: never started */
    struct lmk_trace_entry *names;
    struct lmk_trace_record *ring;
    const struct lm_thread *sliced; /* its slice expired; it has not run since */
    /* The switch due away from it is R7.1 (h): its own priority or
     * threshold changed; a wake's preemption (g) since clears it. */
    const struct lm_thread *own;
    /* A handler suspended or ended it while it ran: R7.1 (i). */
    const struct lm_thread *by_isr;
};
struct lmk_trace_state lmk_trace;

lm_status_t lm_trace_start(void *buf, size_t bytes, unsigned names, lm_trace_mode_t mode)
{
    LMK_CHECK(buf != NULL && ((uintptr_t)buf & 3u) == 0u, LM_ERR_PARAM);
    LMK_CHECK(mode == LM_TRACE_STOP_WHEN_FULL || mode == LM_TRACE_OVERWRITE, LM_ERR_PARAM);
    size_t fixed = sizeof(lm_trace_header_t) + (size_t)names * sizeof(struct lmk_trace_entry);
    LMK_CHECK(names <= 0xFFFFu && bytes >= fixed + 4u * sizeof(struct lmk_trace_record),
              LM_ERR_PARAM);
    size_t slots = (bytes - fixed) / sizeof(struct lmk_trace_record);
    LMK_CHECK(slots <= UINT32_MAX, LM_ERR_PARAM); /* the header counts slots in 32 bits */
    uint32_t hz = lm_port_timestamp_start();
    lm_irqstate_t s = lm_port_irq_lock();
    lm_trace_header_t *h = (lm_trace_header_t *)buf;
    memset(h, 0, sizeof *h);
    h->magic = LM_TRACE_MAGIC;
    h->version = LM_TRACE_VERSION;
    h->header_bytes = (uint16_t)sizeof *h;
    h->timestamp_hz = hz;
    h->tick_hz = LM_CFG_TICK_HZ;
    h->record_bytes = (uint16_t)sizeof(struct lmk_trace_record);
    h->entry_bytes = (uint16_t)sizeof(struct lmk_trace_entry);
    h->names_max = names;
    h->records_max = (uint32_t)slots;
    h->mode = (uint8_t)mode;
    h->address_bytes = (uint8_t)sizeof(void *);
    h->idle = lmk_trace_addr(&lmk_idle_thread);
    lmk_trace.hdr = h;
    lmk_trace.names = (struct lmk_trace_entry *)(h + 1);
    lmk_trace.ring = (struct lmk_trace_record *)(lmk_trace.names + names);
    lmk_trace.sliced = NULL;
    lmk_trace.own = NULL;
    lmk_trace.by_isr = NULL;
    h->active = 1u;
    lm_port_irq_unlock(s);
    return LM_OK;
}

void lm_trace_stop(void)
{
    if (lmk_trace.hdr != NULL) {
        lmk_trace.hdr->active = 0u;
    }
}

const void *lm_trace_buffer(size_t *bytes)
{
    size_t n = 0;
    if (lmk_trace.hdr != NULL) {
        n = (size_t)((const uint8_t *)(lmk_trace.ring + lmk_trace.hdr->records_max) -
                     (const uint8_t *)lmk_trace.hdr);
    }
    if (bytes != NULL) {
        *bytes = n;
    }
    return lmk_trace.hdr;
}

lm_status_t lm_trace_name(lm_trace_kind_t kind, const void *obj, size_t bytes, const char *name)
{
    LMK_CHECK(name != NULL, LM_ERR_PARAM);
    LMK_CHECK(kind >= LM_TRACE_KIND_THREAD && kind <= LM_TRACE_KIND_IRQ, LM_ERR_PARAM);
    if (lmk_trace.hdr == NULL) {
        return LMK_FAIL(LM_ERR_STATE);
    }
    uint32_t addr = lmk_trace_addr(obj);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_trace_header_t *h = lmk_trace.hdr;
    uint32_t i = 0;
    while (i < h->names && !(lmk_trace.names[i].addr == addr && lmk_trace.names[i].kind == (uint8_t)kind)) {
        i++;
    }
    lm_status_t st = LM_OK;
    if (i == h->names) {
        if (i == h->names_max) {
            h->dropped++;
            st = LM_ERR_OVERFLOW;
        } else {
            h->names++;
        }
    }
    if (st == LM_OK) {
        struct lmk_trace_entry *e = &lmk_trace.names[i];
        e->addr = addr;
        e->bytes = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
        e->kind = (uint8_t)kind;
        size_t n = 0;
        while (n < LM_TRACE_NAME_BYTES - 1u && name[n] != '\0') {
            n++;
        }
        memcpy(e->name, name, n);
        memset(e->name + n, 0, LM_TRACE_NAME_BYTES - n);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* Context: any. Lock: any (taken to reserve the slot). Cost: O(1). */
void lmk_trace_rec(uint8_t type, uint8_t arg, uint16_t h, uint32_t a, uint32_t b)
{
    lm_trace_header_t *hd = lmk_trace.hdr;
    if (hd == NULL || hd->active == 0u) {
        return;
    }
    lm_irqstate_t s = lm_port_irq_lock();
    uint32_t slot = hd->next;
    bool take = hd->mode == (uint8_t)LM_TRACE_OVERWRITE || hd->written < hd->records_max;
    if (take) {
        hd->next = (slot + 1u == hd->records_max) ? 0u : slot + 1u;
        hd->written++;
    } else {
        hd->dropped++;
    }
    uint32_t ts = lm_port_timestamp();
    lm_port_irq_unlock(s);
    if (take) {
        struct lmk_trace_record *r = &lmk_trace.ring[slot];
        r->ts = ts;
        r->type = type;
        r->arg = arg;
        r->h = h;
        r->a = a;
        r->b = b;
    }
}

void lmk_trace_thread_create(const struct lm_thread *t)
{
    if (lmk_trace.hdr != NULL && t->name != NULL) {
        (void)lm_trace_name(LM_TRACE_KIND_THREAD, t, sizeof *t, t->name);
    }
    lmk_trace_thread(LM_TRACE_THREAD_CREATE, t, t->base_prio);
}

void lmk_trace_thread(uint8_t type, const struct lm_thread *t, uint16_t h)
{
    if ((type == LM_TRACE_THREAD_END || type == LM_TRACE_THREAD_SUSPEND) && t == lmk.current &&
        lm_port_in_isr()) {
        lmk_trace.by_isr = t;
    }
    lmk_trace_rec(type, 0u, h, lmk_trace_addr(t), 0u);
}

void lmk_trace_decided_own(const struct lm_thread *t)
{
    if (t == lmk.current) {
        lmk_trace.own = (lmk.next != t) ? t : NULL;
    }
}

void lmk_trace_wake_preempts(void)
{
    lmk_trace.own = NULL;
}

void lmk_trace_slice(const struct lm_thread *t)
{
    lmk_trace.sliced = t;
    lmk_trace_thread(LM_TRACE_SLICE, t, 0u);
}

void lmk_trace_yield(const struct lm_thread *t)
{
    if (lmk_trace.sliced == t) {
        lmk_trace.sliced = NULL;
    }
    lmk_trace_thread(LM_TRACE_YIELD, t, 0u);
}

/* Lock: held. Cost: O(1). */
void lmk_trace_switch(const struct lm_thread *prev, const struct lm_thread *next, bool yielded)
{
    uint8_t reason;
    if (prev == &lmk_idle_thread) {
        reason = LM_TRACE_R_IDLE;
    } else {
        switch (prev->state) {
        case LM_THREAD_READY:
            if (!yielded) {
                reason = (lmk_trace.own == prev) ? LM_TRACE_R_PREEMPT_OWN : LM_TRACE_R_PREEMPT;
            } else if (lmk_trace.sliced == prev) {
                reason = LM_TRACE_R_SLICE;
            } else {
                reason = LM_TRACE_R_RELINQUISH;
            }
            break;
        case LM_THREAD_BLOCKED:
            reason = LM_TRACE_R_BLOCK;
            break;
        case LM_THREAD_SLEEPING:
            reason = LM_TRACE_R_SLEEP;
            break;
        case LM_THREAD_SUSPENDED:
            reason = (lmk_trace.by_isr == prev) ? LM_TRACE_R_SUSPEND_ISR : LM_TRACE_R_SUSPEND;
            break;
        default: /* TERMINATED; a deleted thread too */
            reason = (lmk_trace.by_isr == prev) ? LM_TRACE_R_END_ISR : LM_TRACE_R_END;
            break;
        }
    }
    if (lmk_trace.sliced == prev) {
        lmk_trace.sliced = NULL;
    }
    lmk_trace.own = NULL;
    lmk_trace.by_isr = NULL;
    lmk_trace_rec(LM_TRACE_SWITCH, reason, prev->prio, lmk_trace_addr(prev),
                  lmk_trace_addr(next));
}

lm_status_t lmk_trace_obj(uint8_t op, const void *obj, lm_status_t status)
{
    lmk_trace_rec(LM_TRACE_OBJ, op, (uint16_t)status, lmk_trace_addr(obj),
                  lmk_trace_addr(lmk.current));
    return status;
}

void lm_trace_user(uint16_t id, uint32_t a, uint32_t b)
{
    lmk_trace_rec(LM_TRACE_USER, 0u, id, a, b);
}

void lm_trace_isr_enter(uint16_t irq)
{
#if LM_CFG_STATS
    lm_irqstate_t s = lm_port_irq_lock(); /* a nested handler may count too */
    lmk.stats.interrupts++;
    lm_port_irq_unlock(s);
#endif
    lmk_trace_rec(LM_TRACE_ISR_ENTER, 0u, irq, lmk_trace_addr(lmk.current), 0u);
}

void lm_trace_isr_exit(uint16_t irq)
{
    lmk_trace_rec(LM_TRACE_ISR_EXIT, 0u, irq, lmk_trace_addr(lmk.current), 0u);
}

#endif /* LM_CFG_TRACE */
