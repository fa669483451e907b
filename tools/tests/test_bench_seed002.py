# SPDX-License-Identifier: Apache-2.0
"""What ./limen bench seed002 accepts and refuses (tools/bench_seed002.py):
a run that lost a figure, a wake-up off its tick, a wrong FFT peak, a lost
sample or samples not 1 ms apart fail the command; the kernel's share splits the execution log's
counts as docs/benchmarks.md says. The images themselves run in the test
command's smoke run (./limen bench seed002 --short)."""
import collections

import bench
import bench_seed002 as s2

PERIOD_LINE = ("LMB s2_period period_ticks=10 load=1 periods=5 bad=0 latency_mean_x100=22400 "
               "latency_min=200 latency_max=280 error_mean_x100=1600 error_max=40 "
               "error_lo_biased=2147483608 error_hi_biased=2147483688 drift=0 load_rounds=9")
FFT_LINE = ("LMB s2_fft frames=2 points=1024 fft_min=86000 fft_max=86000 frame_min=93240 "
            "frame_max=93240 peak_bin=128 peak_mhz=125000 wrong_peaks=0 samples=2048 overruns=0 "
            "sample_period_x100=100000000")


def fields(line, **changes):
    f = bench.parse(line)
    for k, v in changes.items():
        if v is None:
            del f[k]
        else:
            f[k] = v
    return f


def test_a_complete_periodicity_run_passes():
    assert s2.check_period(fields(PERIOD_LINE), 5) is None


def test_periodicity_refusals():
    assert "missing" in s2.check_period(fields(PERIOD_LINE, error_max=None), 5)
    assert "missing" in s2.check_period(fields(PERIOD_LINE, latency_mean_x100=None), 5)
    assert "2 wake-ups" in s2.check_period(fields(PERIOD_LINE, bad=2), 5)
    assert "periods run" in s2.check_period(fields(PERIOD_LINE), 6)
    assert "never ran" in s2.check_period(fields(PERIOD_LINE, load_rounds=0), 5)


def test_a_complete_fft_run_passes():
    assert s2.check_fft(fields(FFT_LINE), 2) is None


def test_fft_refusals():
    assert "peak bin 127" in s2.check_fft(fields(FFT_LINE, peak_bin=127), 2)
    assert "1 frames wrong" in s2.check_fft(fields(FFT_LINE, wrong_peaks=1), 2)
    assert "lost" in s2.check_fft(fields(FFT_LINE, overruns=3), 2)
    assert "frames" in s2.check_fft(fields(FFT_LINE, samples=2047), 2)
    assert "frames" in s2.check_fft(fields(FFT_LINE), 3)
    assert "missing" in s2.check_fft(fields(FFT_LINE, fft_max=None), 2)
    assert "not 1,000,000" in s2.check_fft(fields(FFT_LINE, sample_period_x100=200000000), 2)


def test_kernel_share_splits_by_function():
    counts = collections.Counter({"PendSV_Handler": 300, "lm_queue_send": 100, "s2_rfft": 250,
                                  "TIMER0_Handler": 50, "lmk_idle_entry": 70,
                                  "lm_port_idle": 30})
    kfun = {"PendSV_Handler", "lm_queue_send", "lmk_idle_entry", "lm_port_idle"}
    got = s2.split_counts(counts, kfun, 4)
    assert (got["kernel_instructions"], got["application_instructions"],
            got["idle_instructions"]) == (400, 300, 100)
    assert got["kernel_share"] == round(400 / 700, 4)
    assert got["kernel_per_sample"] == 100.0
    assert list(got["top_kernel_functions"]) == ["PendSV_Handler", "lm_queue_send"]
