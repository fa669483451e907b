/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A radix-2 real FFT of S2_FFT_N points in single precision: the N real
 * samples are taken as N/2 complex ones (even samples real, odd samples
 * imaginary), transformed by an iterative radix-2 FFT of N/2 points, and
 * the N/2 + 1 bins of the real spectrum split out of it.
 */
#ifndef S2_FFT_H
#define S2_FFT_H

#include <stdint.h>

#define S2_FFT_N 1024u
#define S2_FFT_HALF (S2_FFT_N / 2u)

/* Bin k of the spectrum, k = 0 .. N/2. */
typedef struct s2_cplx {
    float re;
    float im;
} s2_cplx_t;

/* The twiddle factors (sinf, cosf) and the bit-reversal table: once, before
 * any transform. */
void s2_fft_init(void);

/* The spectrum of x[0 .. N-1] into out[0 .. N/2]. x is overwritten (it holds
 * the half-length complex transform afterwards). */
void s2_rfft(float *x, s2_cplx_t *out);

/* The bin 1 .. N/2 - 1 of greatest magnitude (the constant term excluded). */
uint32_t s2_peak_bin(const s2_cplx_t *spectrum);

#endif
