# SPDX-License-Identifier: Apache-2.0
"""The walk behind the longest-masked-stretch figures (tools/bench_masked.py)
on hand-made logs: what masks and unmasks, how a stretch is counted, which
log lines are instructions that did not run, which stretches belong to a
timed window. The walk on a real image, with hand-written stretches of
known length (bench/apps/mk_known.c), runs in ./limen bench series."""
import bench_masked as bm

# A made-up image: addresses of mask writes and what each writes.
SITES = {
    0x10: (2, "f", [("primask", 1)]),                 # cpsid i
    0x20: (2, "f", [("primask", 0)]),                 # cpsie i
    0x30: (4, "f", [("basepri_max", "r1")]),          # raise
    0x40: (4, "f", [("basepri", "r2")]),              # restore
    0x50: (4, "f", [("primask", "r3")]),              # msr primask
}


def regs(**r):
    return {int(k[1:]): v for k, v in r.items()}


def walk(seq):
    """seq: [(pc, registers or None)] -> [(length, lock, unlock)]."""
    pcs = [pc for pc, _ in seq]
    values = [r for _, r in seq]
    return [(e - b, lk, un) for b, e, lk, un in bm.walk(pcs, values, SITES)]


def test_objdump_forms_of_every_mask_write():
    assert bm.mask_write("cpsid", "i") == [("primask", 1)]
    assert bm.mask_write("cpsie", "i") == [("primask", 0)]
    assert bm.mask_write("cpsid", "f") == [("faultmask", 1)]
    assert bm.mask_write("msr", "BASEPRI, r3") == [("basepri", "r3")]
    assert bm.mask_write("msr", "BASEPRI_MAX, r2") == [("basepri_max", "r2")]
    assert bm.mask_write("msr", "PRIMASK, r0") == [("primask", "r0")]
    assert bm.mask_write("msr", "PSP, r0") is None
    assert bm.mask_write("msr", "CONTROL, r0") is None
    assert bm.mask_write("mrs", "r0, BASEPRI") is None


def test_basepri_max_only_raises():
    s = {"primask": 0, "faultmask": 0, "basepri": 0}
    s = bm.apply_write(s, [("basepri_max", "r1")], regs(r1=0x40))
    assert s["basepri"] == 0x40
    s = bm.apply_write(s, [("basepri_max", "r1")], regs(r1=0x60))  # less urgent: no change
    assert s["basepri"] == 0x40
    s = bm.apply_write(s, [("basepri_max", "r1")], regs(r1=0))     # 0: no change
    assert s["basepri"] == 0x40
    s = bm.apply_write(s, [("basepri_max", "r1")], regs(r1=0x20))
    assert s["basepri"] == 0x20
    s = bm.apply_write(s, [("basepri", "r1")], regs(r1=0))         # plain write lowers
    assert s["basepri"] == 0 and not bm.masked(s)


def test_a_stretch_counts_from_after_the_mask_through_the_unmask():
    seq = [(0x0, None), (0x10, None), (0x12, None), (0x14, None), (0x20, None), (0x22, None)]
    assert walk(seq) == [(3, 0x10, 0x20)]


def test_a_nested_restore_to_the_ceiling_does_not_end_the_stretch():
    r = regs(r1=0x20, r2=0x20, r3=0)
    seq = [(0x30, r), (0x1, None), (0x30, r), (0x2, None), (0x40, r),   # inner restore: 0x20
           (0x3, None), (0x40, regs(r2=0)), (0x4, None)]
    assert walk(seq) == [(6, 0x30, 0x40)]


def test_primask_and_basepri_overlapping_are_one_stretch():
    seq = [(0x30, regs(r1=0x20)), (0x1, None), (0x10, None), (0x40, regs(r2=0)),
           (0x2, None), (0x20, None), (0x3, None), (0x50, regs(r3=1)), (0x50, regs(r3=0))]
    assert walk(seq) == [(5, 0x30, 0x20), (1, 0x50, 0x50)]


def test_log_lines_of_instructions_that_did_not_run_are_marked(tmp_path):
    log = tmp_path / "a.log"
    log.write_text(
        "Trace 0: 0x7f00 [00800408/00000c0a/00000010/ff020201] f\n"
        "cpu_io_recompile: rewound execution of TB to 00000c0a\n"
        "Trace 0: 0x7f00 [00800408/00000c0a/00000010/ff038201] f\n"
        "Trace 0: 0x7f00 [00800408/00000c0e/00000010/ff020201] f\n"
        "Stopped execution of TB chain before 0x7f00 [00000c0e] f\n"
        "Taking exception 5 [IRQ] on CPU 0\n"
        "Trace 0: 0x7f00 [00800409/00001678/00000010/ff020201] SysTick_Handler\n"
        "Trace 0: 0x7f00 [00800408/00000c0e/00000010/ff020201] f\n")
    assert bm.parse_exec(str(log)) == [(0xc0a, False), (0xc0a, True), (0xc0e, False),
                                       (0x1678, True), (0xc0e, True)]


def test_cpu_log_gives_the_registers_before_each_write(tmp_path):
    log = tmp_path / "b.log"
    log.write_text(
        "Trace 0: 0x7f00 [00800408/00000030/00000010/ff020201] f\n"
        "R00=00000000 R01=00000020 R02=00000000 R03=00000000\n"
        "R04=00000000 R05=00000000 R06=00000000 R07=00000000\n"
        "R08=00000000 R09=00000000 R10=00000000 R11=00000000\n"
        "R12=00000000 R13=20000ff0 R14=000000c7 R15=00000030\n"
        "XPSR=41000000 -Z-- T priv-thread\n")
    recs = bm.parse_cpu(str(log))
    assert [pc for pc, _ in recs] == [0x30] and recs[0][1][1] == 0x20 and recs[0][1][14] == 0xc7


def test_windows_and_the_stretches_that_overlap_them():
    pcs = [0x100, 0x1, 0x200, 0x2, 0x100, 0x3, 0x4, 0x200, 0x200]
    wins = bm.windows(pcs, {0x100}, {0x200})
    assert wins == [(0, 2), (4, 7)]
    # Before the first window, overlapping the second, after both.
    stretches = [(-3, -1, 1, 1), (3, 5, 2, 2), (6, 12, 3, 3), (8, 20, 4, 4)]
    inside, best = bm.longest_in(stretches, wins)
    assert inside == [(3, 5, 2, 2), (6, 12, 3, 3)] and best == (6, 12, 3, 3)
    assert bm.longest_in(stretches[:1], wins) == ([], None)
