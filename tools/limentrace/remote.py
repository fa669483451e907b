# SPDX-License-Identifier: Apache-2.0
"""Reading a running target's trace through the GDB remote protocol: the
path a user takes on a real board through OpenOCD's or pyOCD's GDB server,
and here through QEMU's gdbstub (-gdb tcp::PORT). The trace buffer is
found from the kernel's symbol `lmk_trace` (its first word points at the
buffer's header) in the image's ELF file (pyelftools)."""
import socket
import struct

from . import decode


class RemoteError(RuntimeError):
    pass


class Remote:
    """A minimal GDB remote-protocol client: stop, read memory, continue."""

    def __init__(self, host, port, timeout=10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        # Many small request-reply exchanges: no Nagle delay on each.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.running = None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _byte(self):
        if not self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RemoteError("the GDB server closed the connection")
            self.buf = chunk
        b, self.buf = self.buf[:1], self.buf[1:]
        return b

    def _send(self, payload):
        pkt = b"$" + payload + b"#" + b"%02x" % (sum(payload) & 0xFF)
        for _ in range(3):
            self.sock.sendall(pkt)
            ack = self._byte()
            while ack not in (b"+", b"-"):
                ack = self._byte()  # stray output before the acknowledgement
            if ack == b"+":
                return
        raise RemoteError("packet not acknowledged")

    def _recv(self):
        while self._byte() != b"$":
            pass
        data = bytearray()
        while True:
            b = self._byte()
            if b == b"#":
                break
            data += b
        check = self._byte() + self._byte()
        if int(check, 16) != sum(data) & 0xFF:
            self.sock.sendall(b"-")
            return self._recv()
        self.sock.sendall(b"+")
        return self._unescape(bytes(data))

    @staticmethod
    def _unescape(data):
        out = bytearray()
        i = 0
        while i < len(data):
            c = data[i]
            if c == 0x7D:  # '}' escape
                out.append(data[i + 1] ^ 0x20)
                i += 2
            elif c == 0x2A and out:  # '*' run-length
                out += bytes([out[-1]]) * (data[i + 1] - 29)
                i += 2
            else:
                out.append(c)
                i += 1
        return bytes(out)

    def command(self, payload):
        self._send(payload)
        return self._recv()

    def halt(self, wait=0.5):
        """Stop the target; returns the stop reply. A server may have
        stopped it already when the connection opened (QEMU's does): then
        the interrupt gets no reply, and `?` tells the stop reason."""
        self.sock.sendall(b"\x03")
        old = self.sock.gettimeout()
        self.sock.settimeout(wait)
        try:
            reply = self._recv()
        except (socket.timeout, TimeoutError):
            reply = None
        finally:
            self.sock.settimeout(old)
        if reply is None:
            reply = self.status()
        if not reply.startswith((b"S", b"T")):
            raise RemoteError(f"unexpected stop reply {reply!r}")
        return reply

    def status(self):
        return self.command(b"?")

    def resume(self):
        self._send(b"c")  # the reply comes when the target stops again

    def detach(self):
        try:
            self.command(b"D")
        except (RemoteError, OSError):
            pass

    def read(self, addr, size, chunk=1024):
        out = bytearray()
        while size > 0:
            n = min(chunk, size)
            reply = self.command(b"m%x,%x" % (addr, n))
            if reply.startswith(b"E") or len(reply) != 2 * n:
                raise RemoteError(f"cannot read {n} bytes at {addr:#x}: {reply[:8]!r}")
            out += bytes.fromhex(reply.decode())
            addr += n
            size -= n
        return bytes(out)


def symbol(elf_path, name="lmk_trace"):
    """(address, pointer size, byte order) of a symbol in an ELF file."""
    from elftools.elf.elffile import ELFFile
    with open(elf_path, "rb") as f:
        elf = ELFFile(f)
        tab = elf.get_section_by_name(".symtab")
        if tab is None:
            raise RemoteError(f"{elf_path}: no symbol table")
        syms = tab.get_symbol_by_name(name)
        if not syms:
            raise RemoteError(f"{elf_path}: no symbol {name} (built without LM_CFG_TRACE?)")
        return (syms[0]["st_value"], elf.elfclass // 8,
                "<" if elf.little_endian else ">")


def read_trace(remote, elf_path):
    """The trace buffer's bytes, read from a halted target."""
    addr, ptr_bytes, endian = symbol(elf_path)
    raw = remote.read(addr, ptr_bytes)
    hdr_addr = struct.unpack(endian + ("I" if ptr_bytes == 4 else "Q"), raw)[0]
    if hdr_addr == 0:
        raise RemoteError("no trace started on the target (lm_trace_start)")
    head = remote.read(hdr_addr, 52)
    fields = struct.unpack(endian + decode.HEADER, head)
    size = 52 + fields[7] * 32 + fields[9] * 16
    return head + remote.read(hdr_addr + 52, size - 52)


def snapshot(host, port, elf_path):
    """Halt the target, read its trace, detach (the target runs on): a
    decoded Trace."""
    with Remote(host, port) as r:
        r.halt()
        data = read_trace(r, elf_path)
        r.detach()
    return decode.parse(data)
