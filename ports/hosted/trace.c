/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hosted port: the trace's timestamp and getting a trace out.
 *
 * Time on the hosted port is virtual (docs/hosted.md): the timestamp counts
 * microseconds of it, a tick being 1e6 / LM_CFG_TICK_HZ of them, and every
 * reading within one tick moves it one microsecond on (at most to the next
 * tick's), so the records of a tick keep their order on a timeline. A
 * tick count started again (lm_kernel_init) does not take it back.
 */
#include <stdio.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/hosted.h"

#if LM_PORT_TIMESTAMP

#define US_PER_TICK (1000000u / LM_CFG_TICK_HZ)

static struct {
    lm_tick_t tick;  /* the tick of the last reading */
    uint32_t within; /* readings since, capped below a tick */
    uint32_t last;   /* the last reading */
    uint32_t base;   /* added so that readings never go back (below) */
} ts;

uint32_t lm_port_timestamp(void)
{
    /* Ticks that passed count before their interrupt announces them: a
     * tick handler's records are stamped at the tick it announces. */
    lm_tick_t now = lm_tick_now() + lm_hosted_ticks_pending();
    if (now != ts.tick) {
        ts.tick = now;
        ts.within = 0;
    }
    uint32_t t = (uint32_t)now * US_PER_TICK + ts.within + ts.base;
    if (ts.within + 1u < US_PER_TICK) {
        ts.within++;
    }
    /* lm_kernel_init starts the tick count again (tests do, between
     * cases, within one trace): go on from the last reading instead. */
    if ((int32_t)(t - ts.last) < 0) {
        ts.base += ts.last - t + 1u;
        t = ts.last + 1u;
    }
    ts.last = t;
    return t;
}

uint32_t lm_port_timestamp_start(void)
{
    ts.tick = lm_tick_now() + lm_hosted_ticks_pending();
    ts.within = 0;
    ts.base = 0;
    ts.last = (uint32_t)ts.tick * US_PER_TICK;
    return 1000000u;
}

#endif

#if LM_CFG_TRACE
int lm_hosted_trace_save(const char *path)
{
    size_t n;
    const void *buf = lm_trace_buffer(&n);
    if (buf == NULL || path == NULL) {
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    size_t w = fwrite(buf, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

#endif
