#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_image: static checks of a Cortex-M firmware image (ELF) for a board
that is built here but not run here.

    check_image.py IMAGE.elf --flash 0x08000000:2048K --ram 0x20000000:192K \
        --irqs 91 [--extra-ram 0x10000000:64K] [--cpu-arch v7E-M] [--hard-float]
        [--bin IMAGE.bin] [--require SYMBOL ...] [--tool-prefix arm-none-eabi-]
        [--msplim SYMBOL]

What it proves, from the file alone (readelf, nm, objdump; the section bytes
are read from the ELF directly):
  - the vector table is the .vectors section, at the flash origin, with
    16 + IRQS entries;
  - entry 0 (initial SP) is the top of RAM and the linker's __main_stack_top;
  - the reset vector and every other handler point into flash, Thumb bit set;
    reserved entries are 0;
  - SVC, PendSV and SysTick are the symbols of those names; PendSV and
    SysTick are the Armv7-M port's (strong, not the start-up's weak default,
    and they reach lmk_switch_work / lmk_tick_announce);
  - the required symbols are defined;
  - everything loadable lies in flash (so programming the flash is enough),
    every allocated section lies in flash or RAM, and the image fits;
  - optionally: the build attributes name the expected architecture and the
    hard-float ABI, and the raw .bin starts with the same vector table;
  - optionally (Armv8-M, --msplim): Reset_Handler sets MSPLIM before its
    first call, the given symbol (the main stack's bottom) lies in RAM below
    the initial SP, and PendSV loads PSPLIM (ports/armv8m).

Standard library only. Exit status 0 if every check passed, 1 otherwise.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

REQUIRED = [
    "Reset_Handler", "HardFault_Handler", "Default_Handler", "PendSV_Handler",
    "SysTick_Handler", "SVC_Handler", "main", "lm_kernel_init", "lm_kernel_start",
    "lm_port_start", "lmk_switch_work", "lmk_tick_announce", "lm_board_init",
    "lm_board_puts", "lm_board_exit", "_write",
    "_sbrk", "__data_load", "__data_start", "__data_end", "__bss_start", "__bss_end",
    "__main_stack_top", "__heap_start", "__heap_end",
]
EXCEPTIONS = ["initial SP", "Reset", "NMI", "HardFault", "MemManage", "BusFault",
              "UsageFault", None, None, None, None, "SVCall", "DebugMonitor", None,
              "PendSV", "SysTick"]
SHF_ALLOC = 0x2
SHT_NOBITS = 8


def parse_region(text):
    """'0x08000000:2048K' -> (origin, size)."""
    origin, size = text.split(":")
    mult = 1
    if size[-1] in "kK":
        mult, size = 1024, size[:-1]
    elif size[-1] in "mM":
        mult, size = 1024 * 1024, size[:-1]
    return int(origin, 0), int(size, 0) * mult


def elf_sections(path):
    """Section headers of a 32-bit little-endian ELF: name -> dict."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a 32-bit little-endian ELF file")
    e_shoff, = struct.unpack_from("<I", data, 0x20)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    raw = []
    for i in range(e_shnum):
        raw.append(struct.unpack_from("<IIIIIIIIII", data, e_shoff + i * e_shentsize))
    strtab_off = raw[e_shstrndx][4]
    sections = {}
    for name_off, sh_type, flags, addr, offset, size, *_ in raw:
        end = data.index(b"\0", strtab_off + name_off)
        name = data[strtab_off + name_off:end].decode()
        body = b"" if sh_type == SHT_NOBITS else data[offset:offset + size]
        sections[name] = {"type": sh_type, "flags": flags, "addr": addr, "size": size,
                          "data": body}
    return sections


def tool(prefix, name, *args):
    out = subprocess.run([prefix + name, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{prefix}{name} failed: {out.stderr.strip()}")
    return out.stdout


def symbols(prefix, elf):
    """nm: name -> (address, type letter)."""
    table = {}
    for line in tool(prefix, "nm", elf).splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = (int(parts[0], 16), parts[1])
    return table


def load_segments(prefix, elf):
    """readelf -l: (vaddr, paddr, filesz, memsz) of every PT_LOAD."""
    segs = []
    for line in tool(prefix, "readelf", "-lW", elf).splitlines():
        parts = line.split()
        if parts and parts[0] == "LOAD":
            segs.append(tuple(int(x, 16) for x in parts[2:6]))
    return segs


def disassembly(prefix, elf, symbol):
    return tool(prefix, "objdump", "-d", f"--disassemble={symbol}", elf)


class Checker:
    def __init__(self):
        self.failed = 0

    def check(self, ok, what):
        print(("ok   - " if ok else "FAIL - ") + what)
        if not ok:
            self.failed += 1
        return ok


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("elf")
    p.add_argument("--flash", required=True, type=parse_region, help="ORIGIN:SIZE")
    p.add_argument("--ram", required=True, type=parse_region,
                   help="ORIGIN:SIZE; the initial SP must be its top")
    p.add_argument("--extra-ram", action="append", default=[], type=parse_region,
                   help="other RAM that allocated sections may use (repeatable)")
    p.add_argument("--irqs", required=True, type=int, help="external interrupts")
    p.add_argument("--cpu-arch", help="expected Tag_CPU_arch, e.g. v7E-M")
    p.add_argument("--hard-float", action="store_true",
                   help="expect the hard-float (VFP registers) calling convention")
    p.add_argument("--armv6m", action="store_true",
                   help="Armv6-M vector table: MemManage, BusFault, UsageFault and "
                        "DebugMonitor are reserved (0) too")
    p.add_argument("--bin", help="raw binary made by objcopy -O binary: check it too")
    p.add_argument("--require", action="append", default=[], help="another required symbol")
    p.add_argument("--tool-prefix", default="arm-none-eabi-")
    p.add_argument("--msplim", metavar="SYMBOL",
                   help="Armv8-M: the main stack's bottom, which Reset_Handler must load "
                        "into MSPLIM")
    a = p.parse_args()

    c = Checker()
    flash_lo, flash_size = a.flash
    flash_hi = flash_lo + flash_size
    ram_lo, ram_size = a.ram
    ram_hi = ram_lo + ram_size
    rams = [(ram_lo, ram_hi)] + [(o, o + s) for o, s in a.extra_ram]

    def in_flash(addr, size=1):
        return flash_lo <= addr and addr + size <= flash_hi

    print(f"# {a.elf}")
    secs = elf_sections(a.elf)
    syms = symbols(a.tool_prefix, a.elf)

    # Symbols.
    missing = [s for s in REQUIRED + a.require if s not in syms]
    c.check(not missing, "required symbols defined" +
            (": missing " + " ".join(missing) if missing else f" ({len(REQUIRED + a.require)})"))

    # Vector table.
    vec = secs.get(".vectors")
    n_vec = 16 + a.irqs
    if not c.check(vec is not None, "a .vectors section exists"):
        return 1
    c.check(vec["addr"] == flash_lo,
            f".vectors at 0x{vec['addr']:08x} (flash origin 0x{flash_lo:08x})")
    c.check(vec["size"] == 4 * n_vec,
            f".vectors holds {vec['size'] // 4} entries (16 + {a.irqs} = {n_vec})")
    words = list(struct.unpack_from(f"<{len(vec['data']) // 4}I", vec["data"]))
    if len(words) < 16:
        c.check(False, "vector table has the 16 system entries")
        return 1

    sp = words[0]
    c.check(sp == ram_hi, f"initial SP 0x{sp:08x} = top of RAM 0x{ram_hi:08x}")
    c.check(sp % 8 == 0, "initial SP is 8-byte aligned")
    if "__main_stack_top" in syms:
        c.check(sp == syms["__main_stack_top"][0], "initial SP = __main_stack_top")

    def handler_ok(i, value, symbol=None):
        name = EXCEPTIONS[i] if i < 16 else f"IRQ {i - 16}"
        ok = (value & 1) == 1 and in_flash(value & ~1, 2)
        msg = f"{name} vector 0x{value:08x}: Thumb, in flash"
        if symbol is not None:
            addr = syms.get(symbol, (None,))[0]
            ok = ok and addr is not None and value == (addr | 1)
            msg += f", = {symbol}" + (f" (0x{addr:08x})" if addr is not None else " (undefined)")
        return c.check(ok, msg)

    handler_ok(1, words[1], "Reset_Handler")
    handler_ok(2, words[2], "NMI_Handler")
    handler_ok(3, words[3], "HardFault_Handler")
    handler_ok(11, words[11], "SVC_Handler")
    handler_ok(14, words[14], "PendSV_Handler")
    handler_ok(15, words[15], "SysTick_Handler")
    zero = (4, 5, 6, 7, 8, 9, 10, 12, 13) if a.armv6m else (7, 8, 9, 10, 13)
    reserved = [i for i in zero if words[i] != 0]
    c.check(not reserved, "reserved entries " + ", ".join(map(str, zero)) + " are 0" +
            (f" (not: {reserved})" if reserved else ""))
    bad = [i for i in list(range(2, 16)) + list(range(16, len(words)))
           if i not in zero and not ((words[i] & 1) and in_flash(words[i] & ~1, 2))]
    c.check(not bad, f"all {len(words) - 6} other handlers are Thumb addresses in flash" +
            (f" (not: {bad})" if bad else ""))

    # The port's handlers, not the start-up's weak defaults.
    default = syms.get("Default_Handler", (None,))[0]
    for name, callee in (("PendSV_Handler", "lmk_switch_work"),
                         ("SysTick_Handler", "lmk_tick_announce")):
        addr, kind = syms.get(name, (None, "?"))
        c.check(kind == "T" and addr != default,
                f"{name} is a strong global symbol (nm type {kind}), not Default_Handler")
        body = disassembly(a.tool_prefix, a.elf, name)
        c.check(re.search(rf"<{callee}>", body) is not None,
                f"{name} reaches {callee} (the port's handler)")
    svc = syms.get("SVC_Handler", (None,))[0]
    print(f"info - SVC_Handler is {'the default handler' if svc == default else 'its own'}"
          " (the ports do not use SVC)")

    # Armv8-M stack limits.
    if a.msplim:
        body = disassembly(a.tool_prefix, a.elf, "Reset_Handler")
        first_call = re.search(r"\tblx?\s", body)
        msr = re.search(r"\tmsr\s+MSPLIM,", body)
        c.check(msr is not None and (first_call is None or msr.start() < first_call.start()),
                "Reset_Handler sets MSPLIM before its first call")
        bottom = syms.get(a.msplim, (None,))[0]
        c.check(bottom is not None and ram_lo <= bottom < sp,
                f"{a.msplim} " + (f"0x{bottom:08x}" if bottom is not None else "(undefined)") +
                f" lies in RAM below the initial SP 0x{sp:08x}")
        c.check(re.search(r"\tmsr\s+PSPLIM,", disassembly(a.tool_prefix, a.elf,
                                                          "PendSV_Handler")) is not None,
                "PendSV_Handler loads PSPLIM (the Armv8-M port)")

    # Memory placement.
    segs = load_segments(a.tool_prefix, a.elf)
    bad = [s for s in segs if s[2] > 0 and not in_flash(s[1], s[2])]
    c.check(segs and not bad, f"every loadable byte is in flash ({len(segs)} segments)" +
            (": not " + ", ".join(f"0x{s[1]:08x}+{s[2]}" for s in bad) if bad else ""))
    flash_end = max((s[1] + s[2] for s in segs if s[2] > 0), default=flash_lo)
    c.check(flash_end - flash_lo <= flash_size,
            f"image uses {flash_end - flash_lo} of {flash_size} bytes of flash")
    outside = []
    for name, s in secs.items():
        if not (s["flags"] & SHF_ALLOC) or s["size"] == 0:
            continue
        if in_flash(s["addr"], s["size"]):
            continue
        if any(lo <= s["addr"] and s["addr"] + s["size"] <= hi for lo, hi in rams):
            continue
        outside.append(name)
    c.check(not outside, "every allocated section lies in flash or RAM" +
            (": not " + " ".join(outside) if outside else ""))
    data = secs.get(".data")
    if data is not None and "__data_load" in syms:
        c.check(in_flash(syms["__data_load"][0], data["size"]),
                f".data ({data['size']} bytes) is loaded from flash at "
                f"0x{syms['__data_load'][0]:08x}")

    # Build attributes.
    if a.cpu_arch or a.hard_float:
        attrs = tool(a.tool_prefix, "readelf", "-A", a.elf)
        if a.cpu_arch:
            m = re.search(r"Tag_CPU_arch: (\S+)", attrs)
            c.check(m is not None and m.group(1) == a.cpu_arch,
                    f"Tag_CPU_arch {m.group(1) if m else '?'} (expected {a.cpu_arch})")
        if a.hard_float:
            c.check("Tag_ABI_VFP_args: VFP registers" in attrs,
                    "hard-float ABI (Tag_ABI_VFP_args: VFP registers)")

    # The raw binary a flash tool writes.
    if a.bin:
        size = os.path.getsize(a.bin) if os.path.exists(a.bin) else -1
        c.check(size == flash_end - flash_lo,
                f"{os.path.basename(a.bin)} is {size} bytes, the flash image's extent")
        if size >= 8:
            with open(a.bin, "rb") as f:
                head = struct.unpack("<2I", f.read(8))
            c.check(head == (words[0], words[1]), ".bin starts with initial SP and reset vector")

    print(f"# {'all checks passed' if c.failed == 0 else f'{c.failed} check(s) FAILED'}")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
