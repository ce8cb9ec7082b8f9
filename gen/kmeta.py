"""kmeta.py - the kernel's own syscall metadata, read from a vmlinux.

Every SYSCALL_DEFINEn leaves a `struct syscall_metadata` named
__syscall_meta__NAME: the name, the number of arguments and two arrays of
strings, the arguments' C types and names.  vmlinux is linked at its final
addresses, so the pointers in it are read as they are, through the section
headers.  System.map gives the symbols' addresses.
"""
import struct


class Image:
    def __init__(self, path):
        self.f = open(path, 'rb')
        hdr = self.f.read(64)
        shoff, = struct.unpack_from('<Q', hdr, 0x28)
        shentsize, shnum = struct.unpack_from('<HH', hdr, 0x3a)
        self.sections = []
        for i in range(shnum):
            self.f.seek(shoff + i * shentsize)
            sh = self.f.read(shentsize)
            typ, = struct.unpack_from('<I', sh, 4)
            addr, off, size = struct.unpack_from('<QQQ', sh, 0x10)
            if typ == 1 and addr:          # SHT_PROGBITS, allocated
                self.sections.append((addr, off, size))

    def read(self, addr, n):
        for base, off, size in self.sections:
            if base <= addr and addr + n <= base + size:
                self.f.seek(off + addr - base)
                return self.f.read(n)
        raise ValueError('address %#x is in no section' % addr)

    def ptr(self, addr):
        return struct.unpack('<Q', self.read(addr, 8))[0]

    def cstr(self, addr):
        out = b''
        while True:
            chunk = self.read(addr + len(out), 1)
            if chunk == b'\0':
                return out.decode()
            out += chunk


def syscalls(vmlinux, system_map):
    """{name: [(type, arg), ...]} for every SYSCALL_DEFINE of the kernel."""
    img = Image(vmlinux)
    out = {}
    with open(system_map) as m:
        for line in m:
            addr, _, sym = line.split()
            if not sym.startswith('__syscall_meta__'):
                continue
            a = int(addr, 16)
            name = img.cstr(img.ptr(a))
            nb, = struct.unpack('<i', img.read(a + 12, 4))
            types, args = img.ptr(a + 16), img.ptr(a + 24)
            out[name[4:] if name.startswith('sys_') else name] = [
                (img.cstr(img.ptr(types + 8 * i)), img.cstr(img.ptr(args + 8 * i)))
                for i in range(nb)]
    return out


def wrappers(system_map, prefix='__x64_sys_'):
    """The syscall entry points (NAME for __x64_sys_NAME) the kernel has."""
    with open(system_map) as m:
        return {line.split()[2][len(prefix):] for line in m
                if line.split()[2].startswith(prefix)}


def weak_wrappers(system_map, prefix='__x64_sys_'):
    """The entry points that are weak stubs of a syscall the kernel was
    built without (type W): kprobe.function matches none of them."""
    with open(system_map) as m:
        return {line.split()[2][len(prefix):] for line in m
                if line.split()[1] == 'W' and line.split()[2].startswith(prefix)}
