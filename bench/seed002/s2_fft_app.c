/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 002's application. CMSDK timer 0 interrupts at 1 kHz, the "ADC": its
 * handler takes the next 12-bit sample of a known synthetic signal and
 * sends it through a queue (from the handler, no separate call). The FFT
 * thread (priority 3) receives the samples one by one; every 1,024 it
 * runs a radix-2 real FFT in single precision on the FPU (s2_fft.c), finds
 * the strongest bin and sends its frequency through a second queue to the
 * "UART" thread (priority 4), which writes it to the console (CMSDK UART0).
 *
 * The signal: 2048 + 1200 sin(2 pi 125 t) + 500 sin(2 pi 312.5 t + 0.3),
 * t in seconds, rounded (computed in single precision before the kernel
 * starts): 125 Hz is bin 128 exactly (1,000 Hz / 1,024 bins
 * per 1,000 Hz), so the peak is bin 128, 125,000 mHz.
 *
 * Figures (timer 1, 40 instructions a count): the FFT alone, and the
 * frame (FFT, peak search and the send), for every frame; the virtual time
 * from the first sample received to the last, per sample; the instructions
 * spent in the kernel are counted outside the image (tools/bench_seed002.py:
 * QEMU's execution log between s2_mark_begin and s2_mark_end).
 */
#include <math.h>

#include "board.h"
#include "lmb.h"
#include "s2_args.h"
#include "s2_fft.h"

#define TIMER0_CTRL (*(volatile uint32_t *)0x40000000u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR (*(volatile uint32_t *)0x4000000Cu)
#define TIMER_CTRL_ENABLE 1u
#define TIMER_CTRL_IRQ 8u

#define SAMPLE_HZ 1000u
#define PEAK_BIN 128u
#define ADC_DEPTH 64u

void TIMER0_Handler(void);
/* Markers for the execution-log count: kept out of line and never merged. */
void s2_mark_begin(void) __attribute__((noinline, used));
void s2_mark_end(void) __attribute__((noinline, used));

static lm_thread_t fft_thread, uart_thread;
static uint64_t fft_stack[2048 / sizeof(uint64_t)];
static uint64_t uart_stack[LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_queue_t adc_q, uart_q;
static LM_QUEUE_BUFFER_DEFINE(adc_buf, sizeof(uint32_t), ADC_DEPTH);
static LM_QUEUE_BUFFER_DEFINE(uart_buf, sizeof(uint32_t), 4u);

static uint16_t signal[S2_FFT_N];
static float frame[S2_FFT_N];
static s2_cplx_t spectrum[S2_FFT_HALF + 1u];

static uint32_t frames;          /* frames to run (command line "frames=") */
static volatile uint32_t next_sample, overruns;
static uint32_t fft_min = UINT32_MAX, fft_max, frame_min = UINT32_MAX, frame_max;
static uint32_t peak_bin, wrong_peaks;
static uint32_t first_sample_at, last_sample_at; /* timer 1 */

void s2_mark_begin(void)
{
    __asm volatile("" ::: "memory");
}

void s2_mark_end(void)
{
    __asm volatile("" ::: "memory");
}

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = 1u;
    uint32_t s = signal[next_sample % S2_FFT_N];
    next_sample++;
    if (lm_queue_send(&adc_q, &s, sizeof s, LM_NO_WAIT) != LM_OK) {
        overruns++;
    }
}

static void fft_entry(void *arg)
{
    (void)arg;
    for (uint32_t f = 0u; f < frames; f++) {
        for (uint32_t n = 0u; n < S2_FFT_N; n++) {
            uint32_t s;
            if (lm_queue_receive(&adc_q, &s, sizeof s, LM_WAIT_FOREVER) != LM_OK) {
                lmb_fail("adc receive");
            }
            if (f == 0u && n == 0u) {
                s2_mark_begin();
                first_sample_at = lmb_now();
            } else if (f == frames - 1u && n == S2_FFT_N - 1u) {
                last_sample_at = lmb_now();
            }
            frame[n] = (float)s;
        }
        uint32_t t0 = lmb_now();
        s2_rfft(frame, spectrum);
        uint32_t t1 = lmb_now();
        uint32_t bin = s2_peak_bin(spectrum);
        uint32_t mhz = (uint32_t)(((uint64_t)bin * SAMPLE_HZ * 1000u) / S2_FFT_N);
        if (lm_queue_send(&uart_q, &mhz, sizeof mhz, LM_WAIT_FOREVER) != LM_OK) {
            lmb_fail("uart send");
        }
        uint32_t t2 = lmb_now();
        uint32_t fft = (t0 - t1) * LMB_INSTR_PER_COUNT, all = (t0 - t2) * LMB_INSTR_PER_COUNT;
        fft_min = fft < fft_min ? fft : fft_min;
        fft_max = fft > fft_max ? fft : fft_max;
        frame_min = all < frame_min ? all : frame_min;
        frame_max = all > frame_max ? all : frame_max;
        peak_bin = bin;
        wrong_peaks += (bin != PEAK_BIN) ? 1u : 0u;
    }
}

/* "peak <Hz>.<mHz> Hz" on the console, one character at a time (the
 * console's own driver, no formatting library). */
static void uart_write_peak(uint32_t mhz)
{
    char digits[12];
    unsigned n = 0u;
    uint32_t hz = mhz / 1000u;
    do {
        digits[n++] = (char)('0' + hz % 10u);
        hz /= 10u;
    } while (hz != 0u);
    lm_board_puts("peak ");
    while (n != 0u) {
        lm_board_putc(digits[--n]);
    }
    lm_board_putc('.');
    lm_board_putc((char)('0' + mhz / 100u % 10u));
    lm_board_putc((char)('0' + mhz / 10u % 10u));
    lm_board_putc((char)('0' + mhz % 10u));
    lm_board_puts(" Hz\n");
}

static void uart_entry(void *arg)
{
    (void)arg;
    for (uint32_t f = 0u; f < frames; f++) {
        uint32_t mhz;
        if (lm_queue_receive(&uart_q, &mhz, sizeof mhz, LM_WAIT_FOREVER) != LM_OK) {
            lmb_fail("uart receive");
        }
        uart_write_peak(mhz);
    }
    s2_mark_end();
    TIMER0_CTRL = 0u;
    lmb_begin("s2_fft");
    lmb_value("frames", frames);
    lmb_value("points", S2_FFT_N);
    lmb_value("fft_min", fft_min);
    lmb_value("fft_max", fft_max);
    lmb_value("frame_min", frame_min);
    lmb_value("frame_max", frame_max);
    lmb_value("peak_bin", peak_bin);
    lmb_value("peak_mhz", (uint32_t)(((uint64_t)peak_bin * SAMPLE_HZ * 1000u) / S2_FFT_N));
    lmb_value("wrong_peaks", wrong_peaks);
    lmb_value("samples", next_sample);
    lmb_value("overruns", overruns);
    /* The virtual time between two samples, in hundredths of an
     * instruction: 1 ms = 100,000,000 at 1 kHz. */
    lmb_value("sample_period_x100",
              (uint32_t)((uint64_t)(first_sample_at - last_sample_at) * LMB_INSTR_PER_COUNT *
                         100u / (frames * S2_FFT_N - 1u)));
    lmb_end();
}

void lmb_app_setup(void)
{
    frames = s2_arg("frames", 4u);
    /* The phases of both tones modulo one turn, exact in integers: 125 Hz
     * turns 125/1000 per sample, 312.5 Hz 3125/10000. */
    const float two_pi = 6.28318531f;
    for (uint32_t n = 0u; n < S2_FFT_N; n++) {
        float a = two_pi * (float)(n * 125u % 1000u) / 1000.0f;
        float b = two_pi * (float)(n * 3125u % 10000u) / 10000.0f + 0.3f;
        signal[n] = (uint16_t)lroundf(2048.0f + 1200.0f * sinf(a) + 500.0f * sinf(b));
    }
    s2_fft_init();
    if (lm_queue_create(&adc_q, adc_buf, sizeof(uint32_t), ADC_DEPTH) != LM_OK ||
        lm_queue_create(&uart_q, uart_buf, sizeof(uint32_t), 4u) != LM_OK) {
        lmb_fail("queue");
    }
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "fft";
    a.entry = fft_entry;
    a.stack = fft_stack;
    a.stack_size = sizeof fft_stack;
    a.priority = 3u;
    if (lm_thread_create(&fft_thread, &a) != LM_OK || lm_thread_start(&fft_thread) != LM_OK) {
        lmb_fail("fft thread");
    }
    lmb_thread(&uart_thread, uart_entry, 0, uart_stack, 4u, 4u);
    LMB_NVIC_IPR(MPS2_IRQ_TIMER0) = LMB_IRQ_PRIO;
    LMB_NVIC_ISER0 = 1u << MPS2_IRQ_TIMER0;
    TIMER0_RELOAD = MPS2_SYSCLK_HZ / SAMPLE_HZ - 1u;
    TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQ;
}
