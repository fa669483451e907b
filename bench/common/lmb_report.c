/* SPDX-License-Identifier: Apache-2.0 */
/* Result lines, sweeps and thread creation for the benchmark images. Only
 * used outside the timed intervals. */
#include "lmb.h"
#include "board.h"

static void put_u32(uint32_t v)
{
    char buf[11];
    unsigned i = sizeof buf - 1u;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    lm_board_puts(&buf[i]);
}

void lmb_begin(const char *measure)
{
    lm_board_puts("LMB ");
    lm_board_puts(measure);
}

void lmb_text(const char *name, const char *value)
{
    lm_board_putc(' ');
    lm_board_puts(name);
    lm_board_putc('=');
    lm_board_puts(value);
}

void lmb_value(const char *name, uint32_t value)
{
    lm_board_putc(' ');
    lm_board_puts(name);
    lm_board_putc('=');
    put_u32(value);
}

_Noreturn void lmb_end(void)
{
    lm_board_putc('\n');
    lm_board_exit(0);
}

_Noreturn void lmb_fail(const char *what)
{
    lm_board_puts("LMB-FAIL ");
    lm_board_puts(what);
    lm_board_putc('\n');
    lm_board_exit(1);
}

void lmb_sweep_reset(lmb_sweep_t *s)
{
    s->sum = 0u;
    s->min = UINT32_MAX;
    s->max = 0u;
}

void lmb_sweep_add(lmb_sweep_t *s, uint32_t counts)
{
    s->sum += counts;
    if (counts < s->min) {
        s->min = counts;
    }
    if (counts > s->max) {
        s->max = counts;
    }
}

void lmb_thread(lm_thread_t *t, void (*entry)(void *), void *arg, void *stack,
                unsigned priority, unsigned threshold)
{
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "b";
    a.entry = entry;
    a.arg = arg;
    a.stack = stack;
    a.stack_size = LMB_STACK_BYTES;
    a.priority = (uint16_t)priority;
    a.threshold = (threshold == priority) ? LM_THRESHOLD_NONE : (uint16_t)threshold;
    if (lm_thread_create(t, &a) != LM_OK || lm_thread_start(t) != LM_OK) {
        lmb_fail("thread");
    }
}

/* The start shift k: the last two characters of the semihosting command
 * line ("<image> kk"), 0 without them. The same instructions run for every
 * k, so only k moves the phase. */
static uint32_t start_shift(void)
{
    static char line[160];
    struct {
        char *buf;
        uint32_t len;
    } block = {line, sizeof line};
    register uint32_t r0 __asm("r0") = 0x15u; /* SYS_GET_CMDLINE */
    register void *r1 __asm("r1") = &block;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    if (r0 != 0u || block.len < 3u || line[block.len - 3u] != ' ') {
        return 0u;
    }
    uint32_t tens = (uint32_t)(line[block.len - 2u] - '0');
    uint32_t ones = (uint32_t)(line[block.len - 1u] - '0');
    uint32_t k = tens * 10u + ones;
    return (tens < 10u && ones < 10u && k < LMB_PHASES) ? k : 0u;
}

int main(void)
{
    lmb_shift(start_shift());
    lm_kernel_init();
    lmb_app_setup();
    lm_kernel_start();
    return 1;
}
