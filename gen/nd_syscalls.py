#!/usr/bin/env python3
"""nd_syscalls.py - write the named variants of the syscall.* aliases:
tapsets/linux/x86_64/nd_syscalls.stp (nd_syscall.*, nd1_syscall.*,
nd2_syscall.*) and tapsets/linux/x86_64/dw_syscalls.stp (dw_syscall.*, and
syscall.*/nd_syscall.* for the syscalls no kernel of the matrix has), for
the names stap 4.8 gives them (gen/syscall_variants.names).

  nd_syscall.NAME   ("no debuginfo") is syscall.NAME, variables and all:
                    ours reads the arguments from registers for both.
  nd2_syscall.NAME  (the __x64_sys_NAME entry points) is syscall.NAME too,
                    or its entry point alone where syscall.NAME falls back
                    to the tracepoint (__syscall.NAME); for the syscalls of
                    32-bit tasks, which syscall.NAME takes from the
                    sys_enter tracepoint, the ia32 entry points.
  nd1_syscall.NAME  probes sys_NAME, the entry point kernels had before
                    their syscall wrappers (4.17), and dw_syscall.NAME the
                    same function by its debuginfo (kernel.function): no
                    kernel of the matrix has them, so they match nothing,
                    as stap 4.8's do there.  Their bodies are syscall.NAME's
                    with the arguments read from the function's own
                    registers (long_arg and its kin).
A name with a hand-written alias of that family in the input files is not
written.

Usage: gen/nd_syscalls.py tapsets/linux/x86_64/syscalls*.stp
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = os.path.join(TOP, 'gen/syscall_variants.names')
ND_OUT = os.path.join(TOP, 'tapsets/linux/x86_64/nd_syscalls.stp')
DW_OUT = os.path.join(TOP, 'tapsets/linux/x86_64/dw_syscalls.stp')

# nd2's ia32 entry point of a 32-bit task's syscall, where the name does not
# say it
IA32_ENTRY = {'pwrite32': ['compat_sys_x86_pwrite'],
              'sysctl': ['compat_sys_sysctl', 'sys_sysctl']}
# nd_syscall.NAME.return that stap 4.8 does not define (a .return suffix
# goes to nd_syscall.NAME's points there, which lands on the same probes)
ND_NO_RETURN = {'accept4', 'clone'}
# registers as the entry point before the syscall wrappers received them
ARG_READER = {'long': 'long_arg', 'ptr': 'pointer_arg', 'int': 'int_arg',
              'uint': 'uint_arg'}


DEFINES = {}   # the input files' @define NAME %( VALUE %): file-local


def read_aliases(paths):
    """{alias name: (probe points, body lines)} of every alias in PATHS."""
    out = {}
    for path in paths:
        text = open(path).read()
        DEFINES.update(re.findall(r'^@define (\w+) %\( (.*?) %\)', text, re.M))
        lines = text.split('\n')
        i = 0
        while i < len(lines):
            m = re.match(r'probe ([\w.]+) =\s*(.*?)\s*(\{\s*\})?$', lines[i])
            if not m:
                i += 1
                continue
            name, points, empty = m.groups()
            while points.endswith(','):     # the points go on below
                i += 1
                m = re.match(r'\s*(.*?)\s*(\{\s*\})?$', lines[i])
                points, empty = points + ' ' + m.group(1), m.group(2)
            body = []
            if not empty and i + 1 < len(lines) and lines[i + 1] == '{':
                j = i + 2
                while lines[j] != '}':
                    body.append(lines[j])
                    j += 1
                i = j
            out.setdefault(name, (points, body))
            i += 1
    return out


def old_entry(point):
    """The pre-wrapper entry point of a probe point on a wrapper, or None."""
    m = re.match(r'kprobe\.function\("__(x64|ia32)_(compat_)?sys_(\w+)"\)', point)
    if m:
        return '%ssys_%s' % (m.group(2) or '', m.group(3))
    return None


def off_tracepoint(body):
    """BODY of a tracepoint alias as a function probe's: without the tests
    of the syscall's number, $ret as returnval()."""
    out, skip = [], False
    for line in body:
        if skip:
            skip = False
            continue
        if re.match(r'\tif \((\$regs->orig_ax|__sys_cur_nr\(\)) !=', line):
            skip = True
            continue
        if re.match(r'\t__nr = ', line):
            continue
        out.append(line.replace('$ret)', 'returnval())').replace(
            '= $ret', '= returnval()'))
    return out


def old_body(body):
    """BODY with the arguments read from the function's own registers."""
    out = []
    for line in off_tracepoint(body):
        line = re.sub(r'__sys_(?:cur_)?(long|ptr|int|uint)\(',
                      lambda m: ARG_READER[m.group(1)] + '(', line)
        line = re.sub(r'@(\w+)', lambda m: DEFINES.get(m.group(1), m.group(0)), line)
        out.append(line)
    return out


def old_points(aliases, name, fam, ret):
    """The probe points of FAM_syscall.NAME from syscall.NAME's."""
    points, _ = aliases['syscall.' + name]
    out = []
    for p in re.split(r',\s*', points):
        p = p.rstrip(' ?!')
        if p.startswith('__syscall.'):
            out.append('__%s_syscall.%s ?' % (fam, p[len('__syscall.'):]))
            continue
        if p == 'never':
            return ['never']
        e = old_entry(p)
        if e is None:           # the tracepoint: a 32-bit task's syscall
            base = re.sub(r'^compat_(sys_)?', '', name)
            e = 'compat_sys_' + base
        out.append(entry_point(fam, e, ret))
    return list(dict.fromkeys(out))     # ia32's and x64's: one sys_* function


def entry_point(fam, func, ret):
    if fam == 'dw':
        return 'kernel.function("%s")%s ?' % (func, '.return' if ret else '.call')
    return 'kprobe.function("%s")%s ?' % (func, '.return' if ret else '')


def doc(alias, what, ret):
    if ret:
        return ['// %s: %s, returning.' % (alias, what),
                '// name: the system call\'s name',
                '// retval: the value it returns',
                '// retstr: retval as strace shows it (an error by its errno name)']
    return ['// %s: %s, entered.' % (alias, what),
            '// name: the system call\'s name',
            '// argstr: the arguments as strace shows them']


def variant(aliases, fam, name, ret, done):
    """FAM_syscall.NAME[.return] (dw or nd1) from syscall.NAME's definition,
    with its inner __syscall.* aliases as __FAM_syscall.*."""
    full = name + ('.return' if ret else '')
    alias = '%s_syscall.%s' % (fam, full)
    what = 'the %s system call at %s' % (
        name.split('.')[0], 'the sys_* function (by its debuginfo)' if fam == 'dw'
        else 'the sys_* entry point (without debuginfo)')
    if 'syscall.' + full not in aliases or \
            aliases['syscall.' + full][0].startswith('tp_syscall.'):
        func = 'sys_' + name
        return doc(alias, what, ret) + [
            'probe %s = %s' % (alias, entry_point(fam, func, ret)), '{',
            '\tname = "%s"' % name] + (
            ['\tretval = returnval()', '\tretstr = return_str(1, returnval())']
            if ret else ['\targstr = ""']) + ['}']
    points, body = aliases['syscall.' + full]
    inner = re.findall(r'__syscall\.([\w.]+)', points)
    text = doc(alias, what, ret)
    if points == 'never':
        return text + ['probe %s = syscall.%s { }' % (alias, full)]
    text += ['probe %s = %s' % (alias, ', '.join(old_points(aliases, full, fam, ret)))]
    text += ['{'] + old_body(body) + ['}'] if body else ['{ }']
    for v in inner:
        if ('__%s_syscall.%s' % (fam, v)) in done:
            continue
        done.add('__%s_syscall.%s' % (fam, v))
        p, b = aliases['__syscall.' + v]
        e = old_entry(p.rstrip(' ?!').replace('.return', ''))
        text += ['probe __%s_syscall.%s = %s' % (fam, v, entry_point(fam, e, ret)),
                 '{'] + old_body(b) + ['}']
    return text


def nd2_ia32(aliases, name, ret):
    """nd2_syscall.NAME[.return] on the ia32 entry points, for a 32-bit
    task's syscall that syscall.NAME takes from the tracepoint."""
    full = name + ('.return' if ret else '')
    _, body = aliases['syscall.' + full]
    base = re.sub(r'^compat_(sys_)?', '', name)
    funcs = IA32_ENTRY.get(name) or (
        ['compat_sys_' + base] if name.startswith('compat_') else ['sys_' + name])
    points = ', '.join('kprobe.function("__ia32_%s")%s ?' % (
        f, '.return' if ret else '') for f in funcs)
    lines = off_tracepoint(body)
    return doc('nd2_syscall.' + full, 'a 32-bit task\'s %s system call at '
               'its ia32 entry point' % name, ret) + [
        'probe nd2_syscall.%s = %s' % (full, points), '{'] + lines + ['}']


def main():
    aliases = read_aliases(sys.argv[1:])
    names, on_tp, fallback = [], set(), set()
    for a, (points, _) in aliases.items():
        m = re.match(r'syscall\.(\w+)$', a)
        if m:
            names.append(m.group(1))
            if 'kernel.trace(' in points:
                on_tp.add(m.group(1))
            if 'tp_syscall.' in points:
                fallback.add(m.group(1))
    variants = {}
    for line in open(NAMES):
        if not line.startswith('#'):
            fam, name = line.split()
            fam = fam[:-len('_syscall')] if fam != 'syscall' else fam
            variants.setdefault(fam, set()).add(name)
    nd = ['// nd_syscalls.stp - nd_syscall.NAME for every syscall.NAME, and',
          '// nd1_syscall.NAME and nd2_syscall.NAME where stap 4.8 has them.',
          '// Generated by gen/nd_syscalls.py; do not edit.']
    dw = ['// dw_syscalls.stp - dw_syscall.NAME where stap 4.8 has it, and',
          '// syscall.NAME for the syscalls no kernel of the matrix has.',
          '// Generated by gen/nd_syscalls.py; do not edit.']
    for name in sorted(variants['syscall']):
        if 'syscall.' + name in aliases:
            continue
        for ret in (False, True):
            full = name + ('.return' if ret else '')
            dw += doc('syscall.' + full, 'the %s system call, at sys_%s '
                      '(which no kernel of the matrix has)' % (name, name), ret)
            dw += ['probe syscall.%s = %s' % (full, entry_point('nd1', 'sys_' + name, ret)),
                   '{', '\tname = "%s"' % name] + (
                ['\tretval = returnval()', '\tretstr = return_str(1, returnval())']
                if ret else ['\targstr = ""']) + ['}']
            names.append(name)
    names = sorted(set(names))
    for name in names:
        for ret in (False, True):
            full = name + ('.return' if ret else '')
            if 'nd_syscall.' + full in aliases or (
                    'syscall.' + full not in aliases and
                    name not in variants['syscall']):
                continue
            if ret and name in ND_NO_RETURN:
                continue
            nd += ['// nd_syscall.%s: syscall.%s under its no-debuginfo name.' % (full, full),
                   'probe nd_syscall.%s = syscall.%s { }' % (full, full)]
    for name in names:
        for ret in (False, True):
            full = name + ('.return' if ret else '')
            if name not in variants['nd2'] and full not in variants['nd2']:
                continue
            if 'nd2_syscall.' + full in aliases or 'syscall.' + full not in aliases:
                continue
            if aliases.get('syscall.%s.return' % name, ('',))[0] == 'never':
                # a syscall that never returns: stap's has no .return, so a
                # .return suffix goes to its probe point (-L shows the
                # entry's variables): the entry alias on the point itself
                if not ret:
                    points, body = aliases['syscall.' + name]
                    nd += ['// nd2_syscall.%s: syscall.%s at the kernel\'s __x64_sys_* '
                           'entry point.' % (name, name),
                           'probe nd2_syscall.%s = %s' % (name, points.rstrip(' ?')),
                           '{'] + body + ['}']
                continue
            if name in on_tp:
                nd += nd2_ia32(aliases, name, ret)
                continue
            inner = '__syscall' if name in fallback else 'syscall'
            nd += ['// nd2_syscall.%s: syscall.%s at the kernel\'s __x64_sys_* entry point.'
                   % (full, full),
                   'probe nd2_syscall.%s = %s.%s { }' % (full, inner, full)]
    done = set()
    for fam, out in (('nd1', nd), ('dw', dw)):
        for full in sorted(variants[fam]):
            if '%s_syscall.%s' % (fam, full) in aliases:
                continue
            ret = full.endswith('.return')
            name = full[:-len('.return')] if ret else full
            if fam == 'nd1' and name == 'clock_adjtime' and not ret:
                # stap 4.8's nd1_syscall.clock_adjtime is on the
                # __x64_sys_* entry point, as its nd2 variant: syscall.
                # clock_adjtime's body on its point's .call, as stap's.
                # A ** after the name goes on into the alias's points:
                # through syscall.clock_adjtime it would list
                # syscall.clock_adjtime.return, on the bare point its
                # .return, where stap 4.8 lists neither
                points, body = aliases['syscall.clock_adjtime']
                points = re.sub(r'(kprobe\.function\("\w+"\))', r'\1.call', points)
                out += doc('nd1_syscall.clock_adjtime', 'the clock_adjtime system '
                           'call at the kernel\'s __x64_sys_* entry point', False)
                out += ['probe nd1_syscall.clock_adjtime = %s' % points,
                        '{'] + body + ['}']
                continue
            out += variant(aliases, fam, name, ret, done)
    with open(ND_OUT, 'w') as f:
        f.write('\n'.join(nd) + '\n')
    with open(DW_OUT, 'w') as f:
        f.write('\n'.join(dw) + '\n')


main()
