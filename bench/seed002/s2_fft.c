/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Radix-2 real FFT (s2_fft.h). With z[n] = x[2n] + i x[2n+1] and Z its
 * transform of N/2 points, the spectrum of x is
 *
 *     X[k] = (Z[k] + conj(Z[N/2-k])) / 2
 *            - i W^k (Z[k] - conj(Z[N/2-k])) / 2,    W = exp(-2 pi i / N),
 *
 * for k = 0 .. N/2 (Z[N/2] = Z[0]): half the butterflies of a complex
 * transform of N points, and the same number of bins the real input has.
 * Cost: (N/4) log2(N/2) butterflies and N/2 split steps, every one a fixed
 * handful of single-precision multiplies and adds on the FPU.
 */
#include "s2_fft.h"

#include <math.h>

#define LOG2_HALF 9u
_Static_assert((1u << LOG2_HALF) == S2_FFT_HALF, "S2_FFT_HALF is 2^LOG2_HALF");

/* W^k for k = 0 .. N/2 - 1 (the half transform uses the even ones). */
static s2_cplx_t twiddle[S2_FFT_HALF];
static uint16_t bitrev[S2_FFT_HALF];

void s2_fft_init(void)
{
    const float step = -6.28318531f / (float)S2_FFT_N;
    for (uint32_t k = 0; k < S2_FFT_HALF; k++) {
        twiddle[k].re = cosf(step * (float)k);
        twiddle[k].im = sinf(step * (float)k);
        uint32_t r = 0;
        for (uint32_t b = 0; b < LOG2_HALF; b++) {
            r |= ((k >> b) & 1u) << (LOG2_HALF - 1u - b);
        }
        bitrev[k] = (uint16_t)r;
    }
}

/* In place, on z[0 .. N/2-1] as interleaved re, im. */
static void cfft_half(float *z)
{
    for (uint32_t i = 0; i < S2_FFT_HALF; i++) {
        uint32_t j = bitrev[i];
        if (j > i) {
            float re = z[2u * i], im = z[2u * i + 1u];
            z[2u * i] = z[2u * j];
            z[2u * i + 1u] = z[2u * j + 1u];
            z[2u * j] = re;
            z[2u * j + 1u] = im;
        }
    }
    for (uint32_t len = 2u; len <= S2_FFT_HALF; len <<= 1u) {
        uint32_t half = len >> 1u;
        uint32_t tstep = S2_FFT_N / len; /* W_len^j = W^(j * N / len) */
        for (uint32_t start = 0; start < S2_FFT_HALF; start += len) {
            for (uint32_t j = 0; j < half; j++) {
                const s2_cplx_t w = twiddle[j * tstep];
                float *a = &z[2u * (start + j)];
                float *b = &z[2u * (start + j + half)];
                float tre = b[0] * w.re - b[1] * w.im;
                float tim = b[0] * w.im + b[1] * w.re;
                b[0] = a[0] - tre;
                b[1] = a[1] - tim;
                a[0] += tre;
                a[1] += tim;
            }
        }
    }
}

void s2_rfft(float *x, s2_cplx_t *out)
{
    cfft_half(x);
    /* k = 0 and N/2: Z[0] alone. */
    out[0].re = x[0] + x[1];
    out[0].im = 0.0f;
    out[S2_FFT_HALF].re = x[0] - x[1];
    out[S2_FFT_HALF].im = 0.0f;
    for (uint32_t k = 1u; k < S2_FFT_HALF; k++) {
        uint32_t m = S2_FFT_HALF - k;
        float zr = x[2u * k], zi = x[2u * k + 1u];
        float cr = x[2u * m], ci = -x[2u * m + 1u]; /* conj(Z[N/2-k]) */
        float er = 0.5f * (zr + cr), ei = 0.5f * (zi + ci);
        float dr = 0.5f * (zr - cr), di = 0.5f * (zi - ci);
        /* -i W^k d = (W.im d.re + W.re d.im) + i (W.im d.im - W.re d.re) */
        const s2_cplx_t w = twiddle[k];
        out[k].re = er + w.im * dr + w.re * di;
        out[k].im = ei + w.im * di - w.re * dr;
    }
}

uint32_t s2_peak_bin(const s2_cplx_t *spectrum)
{
    uint32_t best = 1u;
    float best_mag = -1.0f;
    for (uint32_t k = 1u; k < S2_FFT_HALF; k++) {
        float mag = spectrum[k].re * spectrum[k].re + spectrum[k].im * spectrum[k].im;
        if (mag > best_mag) {
            best_mag = mag;
            best = k;
        }
    }
    return best;
}
