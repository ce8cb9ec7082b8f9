#!/usr/bin/env python3
"""syscalls.py - write tapsets/linux/x86_64/syscalls.stp, the syscall.NAME and
syscall.NAME.return aliases for the syscalls the hand-written tapset
(tapsets/linux/x86_64/syscalls-core.stp) leaves out.

Usage: gen/syscalls.py [--all] [KERNEL-DIR...]
Each KERNEL-DIR holds a kernel's vmlinux, System.map and release, as the
testbed keeps them (default: the testbed's default kernel, then each of the
matrix's in /var/cache/ctap/testbed/kernels).  One file serves them all: a
syscall is written as the first kernel that has it declares it (the default
kernel first), its probes are optional (a kernel without the syscall skips
them), and a syscall whose arguments differ on a later kernel is reported
on stderr to be checked (its registers are the same; only names move).

What drives it:
  - the kernel's syscall metadata (kmeta.py): each syscall's arguments, with
    their C types and names, and the __x64_sys_NAME entry points;
  - gen/syscalls.vars: the variables stap 4.8 gives each syscall.NAME, so a
    script written for stap finds the same names.  A variable is tied to a
    kernel argument by name (VAR, VAR_uaddr, VAR_str, VAR_unquoted), else by
    position among the ones left; one that ties to nothing is left out.
    Syscalls stap 4.8 has no alias for (clone3, openat2, rseq ...) are
    left out, so that `syscall.*` matches what it matches with stap 4.8;
    with --all they are written too, named as the kernel names them, with
    the kernel's argument names.
Each alias probes __x64_sys_NAME (with `?`: a kernel without it skips it)
and reads the arguments from the user registers that wrapper receives
(__sys_* in syscall-args.stp).  argstr lists the arguments generically:
strings quoted, pointers in hex, numbers in decimal; retstr is return_str.
Where stap 4.8 decodes an argument, the tables below name the decoder
(tapsets/linux/syscall-decode.stp) that sets a variable (DECODER,
SYSCALL_DECODER: a function name, or a call with %s for the argument),
decodes an argument argstr shows without a variable (ARG_DECODER), or the
format argstr shows it in (ARG_FORMAT, SHOWN_FORMAT).  A syscall whose
argstr depends on its arguments is hand-written in syscalls-core.stp.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kmeta  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(TOP, 'tapsets/linux/x86_64/syscalls.stp')
CORE = os.path.join(TOP, 'tapsets/linux/x86_64/syscalls-core.stp')
VARS = os.path.join(TOP, 'gen/syscalls.vars')

# stap's name for a syscall whose x86_64 entry point is named otherwise
KERNEL_NAME = {
    'mmap2': 'mmap', 'pread': 'pread64', 'pwrite': 'pwrite64',
    'stat': 'newstat', 'lstat': 'newlstat', 'fstat': 'newfstat',
    'fstatat': 'newfstatat', 'uname': 'newuname', 'readdir': 'old_readdir',
}
# entry points only 32-bit tasks reach (stap names them compat_*, or not)
ONLY32 = re.compile(r'(time32|16)$|^ia32_|^old|^mmap_pgoff$|^socketcall$')
# stap's syscall.NAME covers these newer variants too (their name tells)
VARIANTS = {
    'eventfd': ['eventfd2'], 'inotify_init': ['inotify_init1'],
    'getdents': ['getdents64'], 'sendfile': ['sendfile64'],
    'sync_file_range': ['sync_file_range2'],
}
# merged syscalls stap 4.8 names the same whichever variant was called
ONE_NAME = {'getdents', 'sendfile', 'sync_file_range'}
# format 2 (hex) or 3 (octal) of return_str for these; 1 (decimal) otherwise
RETFORMAT = {'mmap2': 2, 'mremap': 2, 'umask': 3}
# the variables stap 4.8 also sets at a syscall's return: wait4's status
# address, taken at entry; ptrace's two that it always sets to 0
RET_VARS = {'wait4': ['\tstatus_uaddr = @entry(__sys_ptr(2))'],
            'ptrace': ['\tgeteventmsg_data = 0', '\tarch_prctl_addr = 0']}
KEYWORDS = {'break', 'catch', 'continue', 'delete', 'else', 'for', 'foreach',
            'function', 'global', 'if', 'in', 'limit', 'long', 'next',
            'private', 'probe', 'return', 'string', 'try', 'while', 'name',
            'argstr', 'retstr', 'retval'}
UNSIGNED32 = {'unsigned int', 'u32', '__u32', 'uid_t', 'gid_t', 'umode_t',
              'old_uid_t', 'old_gid_t', 'qid_t', 'unsigned', 'unsigned short',
              'u16', 'old_sigset_t', 'const unsigned int'}
LONG = re.compile(r'long|size_t|loff_t|off_t|u64|s64|aio_context_t|time_t|'
                  r'cap_user|key_t_never')


def kind(ctype):
    """How an argument of C type CTYPE is read: str, ptr, long, uint, int."""
    t = ctype.replace('__user', '').strip()
    if '*' in t:
        return 'str' if re.fullmatch(r'(const )?char \*', t) else 'ptr'
    if LONG.search(t):
        return 'long'
    if t in UNSIGNED32:
        return 'uint'
    return 'int'


READER = {'str': '__sys_ptr', 'ptr': '__sys_ptr', 'long': '__sys_long',
          'uint': '__sys_uint', 'int': '__sys_int'}
FORMAT = {'str': '%s', 'ptr': '%p', 'long': '%d', 'uint': '%u', 'int': '%d'}


def shown_as(ctype, arg):
    """How argstr shows an argument, in the style of stap's formats:
    descriptors and ids in decimal, sizes unsigned, addresses and
    pointers in hex, modes in octal."""
    t = ctype.replace('__user', '').replace('const ', '').strip()
    k = kind(ctype)
    if k in ('str', 'ptr'):
        return FORMAT['ptr']
    if t == 'umode_t':
        return '%#o'
    if t == 'size_t':
        return '%u'
    if t == 'unsigned long' and ('addr' in arg or 'start' in arg or
                                 arg in ('brk', 'arg')):
        return '%p'
    if t == 'unsigned long' and arg in ('len', 'size', 'length', 'count'):
        return '%u'
    return '%d'


def split_suffix(var):
    for suf in ('_uaddr', '_unquoted', '_str'):
        if var.endswith(suf):
            return var[:-len(suf)], suf
    return var, ''


# stap's variables that neither name nor position ties to an argument
EXTRA_TIES = {
    'clone': {'stack_start': 1, 'parent_tid_uaddr': 2, 'child_tid_uaddr': 3},
    'execveat': {'dirfd': 0, 'dirfd_str': 0, 'args': 2, 'env_str': 3},
    'mq_open': {'name_uaddr': 0, 'filename': 0, 'filename_unquoted': 0},
    'preadv': {'vector_uaddr': 1, 'count': 2, 'offset': 3},
    'preadv2': {'vector_uaddr': 1, 'count': 2, 'offset': 3},
    'pwritev': {'vector_uaddr': 1, 'count': 2, 'offset': 3},
    'pwritev2': {'vector_uaddr': 1, 'count': 2, 'offset': 3},
    'utime': {'buf_uaddr': 1, 'actime': 1, 'modtime': 1},
    'utimes': {'timeval': 1, 'tvp_uaddr': 1, 'tvp_uaddr_str': 1},
    'execve': {'args': 1, 'env_str': 2},
    'pivot_root': {'old_root_str': 1, 'old_root_str_unquoted': 1},
    'sethostname': {'hostname_uaddr': 0},
    'rt_sigqueueinfo': {'sig_name': 1, 'siginfo_str': 2},
    'mkdirat': {'pahtname_unquoted': 1},
    'semctl': {'cmdstr': 2},
    'io_getevents': {'timestr': 4},
    'kill': {'sig_name': 1},
    'bind': {'sockfd': 0, 'my_addr_uaddr': 1, 'uaddr_af': 1, 'uaddr_ip': 1,
             'uaddr_ip_port': 1, 'uaddr_ipv6_flowinfo': 1,
             'uaddr_ipv6_scope_id': 1},
    'connect': {'sockfd': 0, 'serv_addr_uaddr': 1, 'uaddr_af': 1,
                'uaddr_ip': 1, 'uaddr_ip_port': 1, 'uaddr_ipv6_flowinfo': 1,
                'uaddr_ipv6_scope_id': 1},
}


def tie(name, vars_, args):
    """{var: argument index} for stap's variables VARS_ over ARGS."""
    names = [a for _, a in args]
    vars_ = [(v, t) for v, t in vars_ if v not in ('name', 'argstr') and
             not v.startswith('__')]
    ties = dict(EXTRA_TIES.get(name, {}))
    for v, _ in vars_:
        base, _ = split_suffix(v)
        if base in names:
            ties[v] = names.index(base)
    slots = []                  # bases still to place, in order
    for v, _ in vars_:
        if v in ties or v.endswith(('_str', '_unquoted')):
            continue
        base, _ = split_suffix(v)
        if base not in slots:
            slots.append(base)
    rest = [i for i in range(len(args)) if i not in ties.values()]
    if len(slots) == len(rest):
        place = dict(zip(slots, rest))
        for v, _ in vars_:
            base, suf = split_suffix(v)
            if v not in ties and base in place and suf != '_str':
                ties[v] = place[base]
    for v, _ in vars_:          # NAME_str, NAME_unquoted follow NAME
        if v in ties:
            continue
        base, _ = split_suffix(v)
        for b in (base, base + '_uaddr'):
            if b in ties:
                ties[v] = ties[b]
                break
    return ties


# variables that name a value the way the core aliases do
DECODER = {'dfd_str': '__sys_dfd_str', 'dirfd_str': '__sys_dfd_str',
           'olddfd_str': '__sys_dfd_str', 'newdfd_str': '__sys_dfd_str',
           'olddirfd_str': '__sys_dfd_str', 'newdirfd_str': '__sys_dfd_str',
           'prot_str': '__sys_prot_str', 'sig_str': '__sys_signal_str',
           'sig_name': '__sys_signal_str', 'clk_id_str': '__sys_clock_str',
           'which_clock_str': '__sys_clock_str', 'args': '__sys_argv_str',
           'env_str': '__sys_argv_str', 'timestr': '__sys_timespec_str'}


# variables whose decoding depends on the syscall
SYSCALL_DECODER = {
    ('lseek', 'whence_str'): '__sys_whence_str',
    ('access', 'mode_str'): '__sys_access_mode_str',
    ('faccessat', 'mode_str'): '__sys_access_mode_str',
    ('faccessat2', 'mode_str'): '__sys_access_mode_str',
    ('fcntl', 'cmd_str'): '__sys_fcntl_cmd_str',
    ('arch_prctl', 'code_str'): '__sys_arch_prctl_code_str',
    ('prlimit64', 'resource_str'): '__sys_rlimit_resource_str',
    ('prlimit64', 'new_rlim_str'): '__sys_rlimit_str',
    ('getrandom', 'flags_str'): '__sys_getrandom_flags_str',
    ('wait4', 'options_str'): '__sys_wait_options_str',
    ('rt_sigprocmask', 'how_str'): '__sys_sigprocmask_how_str',
    ('rt_sigprocmask', 'set_str'): '__sys_sigset_str',
    ('rt_sigsuspend', 'set_str'): '__sys_sigset_str',
    ('rt_sigaction', 'act_str'): '__sys_sigaction_str',
    ('fstatat', 'flags_str'): '__sys_at_flags_str',
    ('fchownat', 'flags_str'): '__sys_at_flags_str',
    ('linkat', 'flags_str'): '__sys_at_flags_str',
    ('statx', 'flags_str'): '__sys_at_flags_str',
    ('unlinkat', 'flag_str'): '__sys_at_flags_str',
    ('utimensat', 'flags_str'): '__sys_at_flags_str',
    ('execveat', 'flags_str'): '__sys_at_flags_str',
    ('epoll_ctl', 'op_str'): '__sys_epoll_op_str',
    ('fadvise64', 'advice_str'): '__sys_fadvise_advice_str',
    ('fadvise64_64', 'advice_str'): '__sys_fadvise_advice_str',
    ('madvise', 'advice_str'): '__sys_madvise_advice_str',
    ('getrusage', 'who_str'): '__sys_rusage_who_str',
    ('setitimer', 'which_str'): '__sys_itimer_which_str',
    ('setitimer', 'value_str'): '__sys_itimerval_str',
    ('waitid', 'which_str'): '__sys_waitid_which_str',
    ('waitid', 'options_str'): '__sys_wait_options_str',
    ('setpriority', 'which_str'): '__sys_priority_which_str',
    ('shutdown', 'how_str'): '__sys_shutdown_how_str',
    ('mremap', 'flags_str'): '__sys_mremap_flags_str',
    ('eventfd2', 'flags_str'): '__sys_eventfd_flags_str',
    ('sendto', 'flags_str'): '__sys_msg_flags_str',
    ('recvfrom', 'flags_str'): '__sys_msg_flags_str',
    ('sendmsg', 'flags_str'): '__sys_msg_flags_str',
    ('recvmsg', 'flags_str'): '__sys_msg_flags_str',
    ('sendmmsg', 'flags_str'): '__sys_msg_flags_str',
    ('recvmmsg', 'flags_str'): '__sys_msg_flags_str',
    ('accept4', 'flags_str'): '__sys_sock_flags_str',
    ('sched_setscheduler', 'policy_str'): '__sys_sched_policy_str',
    ('sched_get_priority_max', 'policy_str'): '__sys_sched_policy_str',
    ('sched_get_priority_min', 'policy_str'): '__sys_sched_policy_str',
    ('setrlimit', 'resource_str'): '__sys_rlimit_resource_str',
    ('setrlimit', 'rlim_str'): '__sys_rlimit_str',
    ('timer_create', 'clockid_str'): '__sys_clock_str',
    ('timerfd_create', 'clockid_str'): '__sys_timerfd_clock_str',
    ('timerfd_create', 'flags_str'): '__sys_timerfd_flags_str',
    ('timerfd_settime', 'flags_str'): '__sys_timerfd_flags_str',
    ('inotify_add_watch', 'mask_str'): '__sys_inotify_mask_str',
    ('memfd_create', 'flags_str'): '__sys_memfd_flags_str',
    ('mknod', 'mode_str'): '__sys_mknod_mode_str',
    ('mknodat', 'mode_str'): '__sys_mknod_mode_str',
    ('msync', 'flags_str'): '__sys_msync_flags_str',
    ('statx', 'mask_str'): '__sys_statx_mask_str',
    ('sysinfo', 'info_str'): '__sys_sysinfo_str',
    ('times', 'buf_str'): '__sys_tms_str',
    ('sigaltstack', 'uss_str'): '__sys_sigaltstack_str',
    ('renameat2', 'flags_str'): '__sys_renameat2_flags_str',
    ('setsockopt', 'level_str'): '__sys_sockopt_level_str',
    ('setsockopt', 'optname_str'): '__sys_sockopt_name_str',
    ('getsockopt', 'level_str'): '__sys_sockopt_level_str',
    ('getsockopt', 'optname_str'): '__sys_sockopt_name_str',
    ('ppoll', 'tsp_str'): '__sys_timespec_str',
    ('pselect6', 'timeout_str'): '__sys_timespec_str',
    ('utimensat', 'tsp_str'): '__sys_timespec_pair_str',
    ('select', 'timeout_str'): '__sys_timeval_str(%s, 1)',
    ('settimeofday', 'tv_str'): '__sys_timeval_str(%s, 1)',
    ('utimes', 'tvp_uaddr_str'): '__sys_timeval_str(%s, 2)',
    ('futimesat', 'tvp_str'): '__sys_timeval_str(%s, 2)',
    ('timer_settime', 'value_str'): '__sys_itimerspec_str',
    ('timerfd_settime', 'value_str'): '__sys_itimerspec_str',
    ('clock_settime', 'tp_uaddr_str'): '__sys_timespec_str',
    ('rt_sigtimedwait', 'uts_str'): '__sys_timespec_str',
    ('rt_sigtimedwait', 'uthese_str'): '__sys_sigset_str',
    ('semtimedop', 'timeout_str'): '__sys_timespec_str',
    ('recvmmsg', 'timeout_str'): '__sys_timespec_str',
    ('mount', 'mountflags_str'): '__sys_mount_flags_str',
    ('mount', 'data'): 'user_string_quoted',
    ('splice', 'flags_str'): '__sys_splice_flags_str',
    ('vmsplice', 'flags_str'): '__sys_splice_flags_str',
    ('setxattr', 'flags_str'): '__sys_xattr_flags_str',
    ('lsetxattr', 'flags_str'): '__sys_xattr_flags_str',
    ('fsetxattr', 'flags_str'): '__sys_xattr_flags_str',
    ('mlockall', 'flags_str'): '__sys_mlockall_flags_str',
    ('unshare', 'unshare_flags_str'): '__sys_clone_flags_str',
    ('seccomp', 'op_str'): '__sys_seccomp_op_str',
    ('seccomp', 'flags_str'): '__sys_seccomp_flags_str',
    ('membarrier', 'cmd_str'): '__sys_membarrier_cmd_str',
    ('setxattr', 'value_str'): '__sys_xattr_value_str(%s, __sys_long(4))',
    ('lsetxattr', 'value_str'): '__sys_xattr_value_str(%s, __sys_long(4))',
    ('fsetxattr', 'value_str'): '__sys_xattr_value_str(%s, __sys_long(4))',
    ('umount', 'flags_str'): '__sys_umount_flags_str',
    ('faccessat2', 'flags_str'): '__sys_faccessat2_flags_str',
    ('fallocate', 'mode_str'): '__sys_fallocate_mode_str',
    ('preadv2', 'flags_str'): '__sys_rwf_flags_str',
    ('pwritev2', 'flags_str'): '__sys_rwf_flags_str',
    ('sync_file_range', 'flags_str'): '__sys_sync_file_range_flags_str',
    ('sync_file_range2', 'flags_str'): '__sys_sync_file_range_flags_str',
    ('mlock2', 'flags_str'): '__sys_mlock2_flags_str',
    ('mbind', 'mode_str'): '__sys_mempolicy_mode_str',
    ('set_mempolicy', 'mode_str'): '__sys_mempolicy_mode_str',
    ('mbind', 'flags_str'): '__sys_mempolicy_flags_str',
    ('move_pages', 'flags_str'): '__sys_mempolicy_flags_str',
    ('get_mempolicy', 'flags_str'): '__sys_mempolicy_flags_str',
    ('ioprio_get', 'which_str'): '__sys_ioprio_which_str',
    ('ioprio_set', 'which_str'): '__sys_ioprio_which_str',
    ('ioprio_set', 'ioprio_str'): '__sys_ioprio_value_str',
    ('kcmp', 'type_str'): '__sys_kcmp_type_str',
    ('msgget', 'key_str'): '__sys_ipc_key_str',
    ('semget', 'key_str'): '__sys_ipc_key_str',
    ('msgget', 'msgflg_str'): '__sys_ipc_flags_str(%s, 0)',
    ('semget', 'semflg_str'): '__sys_ipc_flags_str(%s, 0)',
    ('msgsnd', 'msgflg_str'): '__sys_ipc_flags_str(%s, 0)',
    ('shmget', 'shmflg_str'): '__sys_ipc_flags_str(%s, 1)',
    ('msgrcv', 'msgflg_str'): '__sys_msgrcv_flags_str',
    ('shmat', 'shmflg_str'): '__sys_shmat_flags_str',
    ('msgctl', 'cmd_str'): '__sys_ipc_cmd_str',
    ('shmctl', 'cmd_str'): '__sys_shm_cmd_str',
    ('userfaultfd', 'flags_str'): '__sys_dup3_flags_str',
    ('memfd_secret', 'flags_str'): '__sys_dup3_flags_str',
    ('delete_module', 'flags_str'): '__sys_dup3_flags_str',
    ('name_to_handle_at', 'flags_str'): '__sys_at_flags_str',
    ('open_by_handle_at', 'mount_dfd_str'): '__sys_dfd_str',
    ('open_by_handle_at', 'flags_str'): '__sys_open_flags_str',
    ('mq_open', 'oflag_str'): '__sys_open_flags_str',
    ('setns', 'nstype_str'): '__sys_clone_flags_str',
    ('finit_module', 'flags_str'): '__sys_finit_module_flags_str',
    ('swapon', 'swapflags_str'): '__sys_swapon_flags_str',
    ('sched_getattr', 'sched_attr_str'): '__sys_sched_attr_str',
    ('sched_setattr', 'sched_attr_str'): '__sys_sched_attr_str',
    ('settimeofday', 'tz_str'): '__sys_timezone_str',
    ('fanotify_init', 'flags_str'): '__sys_fanotify_init_flags_str',
    ('fanotify_init', 'event_f_flags_str'): '__sys_open_flags_str',
    ('fanotify_mark', 'flags_str'): '__sys_fanotify_mark_flags_str',
    ('fanotify_mark', 'mask_str'): '__sys_fanotify_mask_str',
    ('perf_event_open', 'flags_str'): '__sys_perf_flags_str',
    ('quotactl', 'cmd_str'): '__sys_quotactl_cmd_str',
    ('pkey_alloc', 'init_val_str'): '__sys_pkey_rights_str',
    ('rt_sigqueueinfo', 'siginfo_str'): '__sys_siginfo_str',
    ('rt_tgsigqueueinfo', 'uinfo_str'): '__sys_siginfo_str',
    ('rt_sigtimedwait', 'uinfo_str'): '__sys_siginfo_str',
    ('bpf', 'cmd_str'): '__sys_bpf_cmd_str',
    ('reboot', 'magic_str'): '__sys_reboot_magic_str',
    ('reboot', 'magic2_str'): '__sys_reboot_magic_str',
    ('reboot', 'flag_str'): '__sys_reboot_cmd_str',
    ('kexec_file_load', 'flags_str'): '__sys_kexec_file_flags_str',
    ('remap_file_pages', 'flags_str'): '__sys_mmap_flags_str',
    ('send', 'flags_str'): '__sys_msg_flags_str',
    ('recv', 'flags_str'): '__sys_msg_flags_str',
    ('waitpid', 'options_str'): '__sys_wait_options_str',
    ('sigprocmask', 'how_str'): '__sys_sigprocmask_how_str',
    ('llseek', 'whence_str'): '__sys_whence_str',
    ('utime', 'actime'): 'user_long(%s)',
    ('clock_adjtime', 'tx_uaddr_str'): '__sys_timex_str',
    ('bind', 'uaddr_af'): '__sys_sockaddr_part(%s, __sys_int(3), 0)',
    ('bind', 'uaddr_ip'): '__sys_sockaddr_part(%s, __sys_int(3), 1)',
    ('bind', 'uaddr_ip_port'): '__sys_sockaddr_part(%s, __sys_int(3), 2)',
    ('bind', 'uaddr_ipv6_flowinfo'): '__sys_sockaddr_part(%s, __sys_int(3), 3)',
    ('bind', 'uaddr_ipv6_scope_id'): '__sys_sockaddr_part(%s, __sys_int(3), 4)',
    ('connect', 'uaddr_af'): '__sys_sockaddr_part(%s, __sys_int(3), 0)',
    ('connect', 'uaddr_ip'): '__sys_sockaddr_part(%s, __sys_int(3), 1)',
    ('connect', 'uaddr_ip_port'): '__sys_sockaddr_part(%s, __sys_int(3), 2)',
    ('connect', 'uaddr_ipv6_flowinfo'): '__sys_sockaddr_part(%s, __sys_int(3), 3)',
    ('connect', 'uaddr_ipv6_scope_id'): '__sys_sockaddr_part(%s, __sys_int(3), 4)',
    ('utime', 'modtime'): 'user_long(%s + 8)',
}

# arguments stap 4.8's argstr decodes though it keeps no _str variable
ARG_DECODER = {
    ('getitimer', 'which'): '__sys_itimer_which_str',
    ('getrlimit', 'resource'): '__sys_rlimit_resource_str',
    ('getpriority', 'which'): '__sys_priority_which_str',
    ('flock', 'operation'): '__sys_flock_op_str',
    ('inotify_init1', 'flags'): '__sys_inotify_init_flags_str',
    ('utime', 'buf_uaddr'): '__sys_utimbuf_str',
    ('quotactl', 'addr_uaddr'): '__sys_quotactl_addr_str(cmd, %s)',
}

# decoded variables stap 4.8's argstr does not show (the argument instead)
NOT_SHOWN = {('rt_sigqueueinfo', 'siginfo_str')} | {
    (c, 'uaddr_' + part) for c in ('bind', 'connect') for part in (
        'af', 'ip', 'ip_port', 'ipv6_flowinfo', 'ipv6_scope_id')}

# arguments stap 4.8's argstr does not show (by index)
ARG_HIDDEN = {'membarrier': {2}, 'preadv2': {4}, 'pwritev2': {4}}

# arguments stap 4.8's argstr formats otherwise than the generic rules
ARG_FORMAT = {
    ('umask', 'mask'): '%#o', ('personality', 'persona'): '%#x',
    ('fallocate', 'offset'): '%#x', ('fallocate', 'len'): '%u',
    ('fadvise64', 'len'): '%d', ('poll', 'nfds'): '%u',
    ('ppoll', 'nfds'): '%u', ('sendto', 'tolen'): '%u',
    ('setsockopt', 'optlen'): '%u', ('sched_getaffinity', 'len'): '%u',
    ('sched_setaffinity', 'len'): '%u', ('getcwd', 'size'): '%d',
    ('mknod', 'dev'): '%u', ('mknodat', 'dev'): '%u',
    ('copy_file_range', 'flags'): '0x%x',
    ('lookup_dcookie', 'cookie'): '%#x', ('lookup_dcookie', 'len'): '%#x',
    ('preadv2', 'offset'): '%#x', ('pwritev2', 'offset'): '%#x',
}

# how argstr shows a decoded variable, where stap 4.8 wraps it
SHOWN_FORMAT = {('rt_sigaction', 'act_str'): '{%s}'}


def reader(ctype, arg):
    """The __sys_* function that reads an argument: descriptors are read
    signed whatever the kernel's type (close(-1) shows -1), as stap."""
    k = kind(ctype)
    if k == 'uint' and (arg.endswith('fd') or arg == 'fildes'):
        return '__sys_int'
    return READER[k]


def decode(decoder, arg):
    """DECODER applied to ARG: a function name, or a call with %s for ARG."""
    return decoder % arg if '%s' in decoder else '%s(%s)' % (decoder, arg)


def value(name, var, typ, i, args):
    """The expression that sets VAR (of stap type TYP) from argument I."""
    k = kind(args[i][0])
    arg = '%s(%d)' % (reader(*args[i]), i + 1)
    _, suf = split_suffix(var)
    if typ == 'string' and (name, var) in SYSCALL_DECODER:
        return decode(SYSCALL_DECODER[name, var], arg)
    if typ == 'string' and var in DECODER:
        return decode(DECODER[var], arg)
    if typ == 'long' and (name, var) in SYSCALL_DECODER:
        return decode(SYSCALL_DECODER[name, var], arg)
    if typ == 'long':
        return arg
    if suf == '_unquoted':
        return 'user_string_nofault(%s)' % arg
    if k == 'str':
        return 'user_string_quoted(%s)' % arg
    fmt = '0x%x' if 'flag' in var and k != 'ptr' else FORMAT[k]
    return 'sprintf("%s", %s)' % (fmt, arg)


def argstr(args, shown, hidden=()):
    """sprintf(...) of the arguments but HIDDEN's; SHOWN: {index:
    variable, or (variable, format)}: a string variable is shown as it is."""
    fmt, vals = [], []
    for i, (ctype, _) in enumerate(args):
        if i in hidden:
            continue
        if i in shown:
            v, f = shown[i] if isinstance(shown[i], tuple) else (shown[i], '%s')
            fmt.append(f)
            vals.append(v)
        else:
            k = kind(ctype)
            fmt.append(shown_as(ctype, args[i][1]))
            vals.append('%s(%d)' % (reader(*args[i]), i + 1))
    if not args:
        return '""'
    return 'sprintf("%s", %s)' % (', '.join(fmt), ', '.join(vals))


def body(name, vars_, args, defaults=False):
    """The alias body; with DEFAULTS, a variable no argument ties to is
    set to 0 or "" (a variant of a syscall that lacks that argument)."""
    lines = []
    ties = tie(name, vars_, args)
    shown, plain = {}, {}
    if ('name', 'string') not in vars_:
        vars_ = [('name', 'string')] + vars_
    for v, typ in vars_:            # in the order stap's -L lists them
        if v == 'name':
            lines.append('\tname = "%s"' % name)
        if v.startswith('__') and v not in ties:  # stap's internals
            lines.append('\t%s = 0' % v)
        elif v not in ('name', 'argstr') and v not in ties and defaults:
            lines.append('\t%s = %s' % (v, '0' if typ == 'long' else
                                         '"0x0"' if v.endswith('_str') else '""'))
        if v in ('name', 'argstr') or v not in ties:
            continue
        i = ties[v]
        lines.append('\t%s = %s' % (v, value(name, v, typ, i, args)))
        if typ == 'string' and not v.endswith('_unquoted') and \
                (name, v) not in NOT_SHOWN:
            if i not in shown or v.endswith('_str'):
                shown[i] = (v, SHOWN_FORMAT[name, v]) \
                    if (name, v) in SHOWN_FORMAT else v
        elif typ == 'long' and i not in shown and i not in plain:
            plain[i] = v
    for i, v in plain.items():
        if i not in shown and (name, v) in ARG_DECODER:
            shown[i] = (decode(ARG_DECODER[name, v], v), '%s')
        elif i not in shown:
            shown[i] = (v, ARG_FORMAT.get((name, v), shown_as(*args[i])))
    lines.append('\targstr = %s' % argstr(args, shown,
                                           ARG_HIDDEN.get(name, ())))
    order = [v for v, _ in vars_]
    if 'argstr' in order and order.index('argstr') < order.index('name'):
        lines.append(lines.pop(lines.index('\tname = "%s"' % name)))
    return lines


def kernel_vars(args):
    """stap-like variables for a syscall stap has no alias for."""
    out = []
    for ctype, a in args:
        a = a + '_' if a in KEYWORDS else a
        k = kind(ctype)
        if k == 'ptr':
            out.append((a + '_uaddr', 'long'))
        elif k == 'str':
            out.append((a, 'string'))
        else:
            out.append((a, 'long'))
    return out


def doc(name, kname, args):
    """The doc comments of syscall.NAME and syscall.NAME.return (man/tapdoc)."""
    decl = '%s(%s)' % (kname, ', '.join(' '.join(a) for a in args) or 'void')
    return (['// syscall.%s: the %s system call, entered:' % (name, name),
             '// %s.' % decl,
             '// name: "%s"' % name,
             '// argstr: the arguments as strace shows them'],
            ['// syscall.%s.return: the %s system call, returning.' % (name, name),
             '// name: "%s"' % name,
             '// retval: the value it returns',
             '// retstr: retval as strace shows it (an error by its errno name)'])


def alias(name, kname, vars_, args, weak=False):
    """syscall.NAME on __x64_sys_KNAME; WEAK: a kernel of the matrix has only
    the weak stub of that entry point (built without the syscall), which
    kprobe.function does not match: there, as stap 4.8's, it falls back to
    tp_syscall.NAME, through __syscall.NAME (nd2_syscall.NAME's)."""
    point = 'kprobe.function("__x64_sys_%s")' % kname
    entry, ret = doc(name, kname, args)
    if weak:
        text = entry + ['probe syscall.%s = __syscall.%s !, tp_syscall.%s ? { }' % (
            name, name, name)] + ret + [
            'probe syscall.%s.return = __syscall.%s.return !, tp_syscall.%s.return ? { }'
            % (name, name, name)]
        ret = []
        name_ = '__syscall.' + name
    else:
        text = entry
        name_ = 'syscall.' + name
    text += ['probe %s = %s ?' % (name_, point), '{']
    text += body(name, vars_, args)
    mux = ', __syscall.%s.mux.return ?' % name if name in MUX else ''
    text += ['}'] + ret + ['probe %s.return = %s.return ?%s' % (name_, point, mux),
             '{', '\tname = "%s"' % name, '\tretval = returnval()',
             '\tretstr = return_str(%d, returnval())' % RETFORMAT.get(name, 1)] + \
        RET_VARS.get(name, []) + ['}', '']
    return text


def merged(name, variants, vars_):
    """syscall.NAME over several entry points, VARIANTS: [(name, args)]."""
    inner = ', '.join('__syscall.%s ?' % v for v, _ in variants)
    entry, ret = doc(name, variants[0][0], variants[0][1])
    text = entry + ['probe syscall.%s = %s {}' % (name, inner)] + ret + [
            'probe syscall.%s.return = %s {}' % (
                name, ', '.join('__syscall.%s.return ?' % v for v, _ in variants))]
    for v, args in variants:
        point = 'kprobe.function("__x64_sys_%s")' % v
        shown = name if name in ONE_NAME else v
        text += ['probe __syscall.%s = %s' % (v, point), '{']
        text += [line.replace('name = "%s"' % v, 'name = "%s"' % shown)
                 for line in body(v, vars_, args, defaults=True)]
        text += ['}', 'probe __syscall.%s.return = %s.return' % (v, point), '{',
                 '\tname = "%s"' % shown, '\tretval = returnval()',
                 '\tretstr = return_str(1, returnval())', '}']
    return text + ['']


# The tracepoint-based aliases: tp_syscall.NAME (stap's variant on the
# sys_enter and sys_exit tracepoints) and the syscall.NAME of 32-bit tasks,
# in tapsets/linux/x86_64/syscalls-tp.stp.  They read the arguments from
# the task's own registers (__sys_cur_*, syscall-args.stp), in the ia32
# order for a 32-bit task, and find the syscall by its number (the uapi
# unistd_64.h and unistd_32.h of the testbed kernel's headers: numbers
# never change).
TP_OUT = os.path.join(TOP, 'tapsets/linux/x86_64/syscalls-tp.stp')
TP_VARS = os.path.join(TOP, 'gen/syscalls_tp.vars')
VARS32 = os.path.join(TOP, 'gen/syscalls32.vars')
# a 32-bit alias's syscall, where its name is not the ia32 table's
NAME32 = {'pwrite32': 'pwrite64', 'sysctl': '_sysctl', 'rt_sigaction32':
          'rt_sigaction', 'settimeofday32': 'settimeofday', 'sigaction32':
          'sigaction', 'ustat32': 'ustat', 'compat_select': 'select'}


def unistd(release, bits):
    """{name: number} of the uapi unistd_BITS.h in RELEASE's headers."""
    path = '/usr/src/linux-headers-%s/arch/x86/include/generated/uapi/asm/unistd_%s.h' % (
        release, bits)
    nums = {}
    for line in open(path):
        m = re.match(r'#define __NR_(\w+)\s+(\d+)', line)
        if m:
            nums[m.group(1)] = int(m.group(2))
    return nums


def base32(name):
    """The syscall a 32-bit alias NAME covers, by its ia32 name."""
    if name in NAME32:
        return NAME32[name]
    for pre in ('compat_sys_', 'compat_'):
        if name.startswith(pre):
            return name[len(pre):]
    return name


def guess_args(vars_):
    """Arguments for a syscall the kernels' metadata lacks, from stap's
    variables: a _uaddr variable a pointer, a string one a string, a long
    a long."""
    out = []
    for v, typ in vars_:
        base, suf = split_suffix(v)
        if v in ('name', 'argstr', '__nr') or suf in ('_str', '_unquoted'):
            continue
        if v.startswith('__'):
            continue
        out.append(('char *' if typ == 'string' else
                    'void *' if suf == '_uaddr' else 'long', base))
    return out


def cur_readers(lines):
    """The lines with the __sys_* readers of the task's own registers."""
    return [re.sub(r'__sys_(long|ptr|int|uint)\(', r'__sys_cur_\1(', l)
            for l in lines]


# the syscalls stap 4.8 also takes from 32-bit tasks' socketcall and ipc
# multiplexers: their tp_syscall.NAME.return reads no registers
MULTIPLEXED = {'accept', 'accept4', 'bind', 'connect', 'getpeername',
               'getsockname', 'getsockopt', 'listen', 'msgget', 'recv',
               'recvfrom', 'recvmsg', 'semget', 'semop', 'send', 'sendmmsg',
               'sendmsg', 'sendto', 'setsockopt', 'shmdt', 'shmget',
               'shutdown', 'socket', 'socketpair'}


# A 32-bit task's socketcall and ipc multiplexers: syscall.NAME.return of
# the MULTIPLEXED syscalls (__syscall.NAME.mux.return) and of the 32-bit
# ones (MUX32) also fires at the return of a multiplexer entered for NAME,
# as stap 4.8's does.  The call, taken at entry (@entry, as stap's:
# -L shows the _entry_tvar_tid that brings), is the task's first argument;
# ipc's msg* calls compare its low 16 bits (the rest is a version).
MUX_POINTS = {'socketcall': ['__ia32_sys_socketcall', '__x64_sys_socketcall',
                             '__ia32_compat_sys_socketcall'],
              'compat_socketcall': ['__ia32_compat_sys_socketcall'],
              'ipc': ['__ia32_compat_sys_ipc']}
MUX = {'socket': ('socketcall', 1), 'bind': ('socketcall', 2),
       'connect': ('socketcall', 3), 'listen': ('socketcall', 4),
       'accept': ('socketcall', 5), 'getsockname': ('socketcall', 6),
       'getpeername': ('socketcall', 7), 'socketpair': ('socketcall', 8),
       'send': ('socketcall', 9), 'recv': ('socketcall', 10),
       'sendto': ('socketcall', 11), 'recvfrom': ('socketcall', 12),
       'shutdown': ('socketcall', 13), 'setsockopt': ('socketcall', 14),
       'getsockopt': ('socketcall', 15), 'sendmsg': ('socketcall', 16),
       'recvmsg': ('socketcall', 17), 'accept4': ('socketcall', 18),
       'sendmmsg': ('socketcall', 20),
       'semop': ('ipc', 1), 'semget': ('ipc', 2), 'msgget': ('ipc', 13),
       'shmdt': ('ipc', 22), 'shmget': ('ipc', 23)}
assert set(MUX) == MULTIPLEXED
MUX32 = {'compat_sys_recvmsg': ('compat_socketcall', 17),
         'compat_sys_sendmsg': ('compat_socketcall', 16),
         'compat_sys_semctl': ('ipc', 3), 'compat_sys_semtimedop': ('ipc', 4),
         'compat_sys_msgsnd': ('ipc', 11), 'compat_sys_msgrcv': ('ipc', 12),
         'compat_sys_msgctl': ('ipc', 14), 'compat_sys_shmat': ('ipc', 21),
         'compat_sys_shmctl': ('ipc', 24)}


def mux_points(mux):
    return ', '.join('kprobe.function("%s").return ?' % p
                     for p in MUX_POINTS[mux[0]])


def mux_test(name, mux):
    """The test that skips a multiplexer's return for a call not NAME's."""
    call = '@entry(__sys_cur_int(1))'
    if mux[0] == 'ipc' and name.split('_')[-1].startswith('msg'):
        call = '(@entry(__sys_cur_uint(1)) & 0xffff)'
    return ['\tif (%s != %d)' % (call, mux[1]), '\t\tnext']


def mux_aliases():
    """__syscall.NAME.mux.return of every MULTIPLEXED syscall."""
    out = []
    for name in sorted(MUX):
        out += ['probe __syscall.%s.mux.return = %s' % (name, mux_points(MUX[name])),
                '{'] + mux_test(name, MUX[name]) + ['}']
    return out + ['']


# syscalls that never return: no tp_syscall.NAME.return (stap 4.8 has none)
NEVER_RETURNS = {'exit', 'exit_group'}


# syscalls whose tp_syscall.NAME.return alone sets __nr (stap's gates the
# return on the syscall's number by a macro that sets it, the entry not)
RET_NR = {'fanotify_mark', 'mq_open', 'mq_timedreceive', 'mq_timedsend',
          'pread', 'preadv', 'preadv2', 'pwritev', 'pwritev2',
          'rt_sigtimedwait', 'timer_settime'}
# syscalls without arguments whose tp_syscall.NAME reads $regs all the same
REGS_READ = {'munlockall'}
# the variables stap 4.8's tp_syscall.NAME.return also sets, before its name
# and after it: compat_signalfd's flags as its entry's, wait4's status (its
# status_str a run-time error there, see __sys_tp_wait4_status_str)
TP_RET_VARS = {
    'compat_signalfd': (['\tflags = 0'], []),
    'wait4': ([], ['\tstatus_uaddr = __sys_cur_ptr(2)',
                   '\tstatus_str = __sys_tp_wait4_status_str(status_uaddr)']),
}


def tp_alias(alias, name, vars_, args, nr, compat, by_hand=()):
    """ALIAS on the sys_enter tracepoint for syscall number NR (its .return
    alone where BY_HAND has ALIAS)."""
    test = '!__sys_cur_compat()' if compat else '__sys_cur_compat()'
    who = 'a 32-bit task\'s' if compat else 'the'
    body = cur_readers(body_of(name, vars_, args, True))
    # stap reads the registers ($regs) only for a syscall with arguments
    nr_of = '$regs->orig_ax' if args or name in REGS_READ else '__sys_cur_nr()'
    ret_nr, ret_body = '$regs->orig_ax', []
    if name in MULTIPLEXED:
        ret_nr = '__sys_cur_nr()'
    if ('__nr', 'long') in vars_:
        body = ['\t__nr = %s' % nr_of] + body
    if ('__nr', 'long') in vars_ or name in RET_NR:
        ret_body = ['\t__nr = %s' % ret_nr]
    before_name, after_name = TP_RET_VARS.get(name, ([], []))
    ret_alias = [] if name in NEVER_RETURNS else (
            ['// %s.return: %s %s system call, returning.' % (alias, who, name),
             '// name: "%s"' % name,
             '// retval: the value it returns',
             '// retstr: retval as strace shows it (an error by its errno name)',
             'probe %s.return = kernel.trace("sys_exit")' % alias, '{',
             '\tif (%s != %d || %s)' % (ret_nr, nr, test), '\t\tnext'] + ret_body +
            before_name + ['\tname = "%s"' % name] + after_name + ['\tretval = $ret',
             '\tretstr = return_str(%d, $ret)' % RETFORMAT.get(name, 1)] +
            [l for l in RET_VARS.get(name, []) if '@entry' not in l] + ['}'])
    if alias in by_hand:
        return ret_alias + ['']
    return (['// %s: %s %s system call, entered (on the sys_enter' % (
                alias, who, name),
             '// tracepoint).',
             '// name: "%s"' % name,
             '// argstr: the arguments as strace shows them',
             'probe %s = kernel.trace("sys_enter")' % alias, '{',
             '\tif (%s != %d || %s)' % (nr_of, nr, test), '\t\tnext'] + body +
            ['}'] + ret_alias + [''])


# the ia32 entry points of 32-bit syscalls without a compat_sys_ one
KP32_POINT = {'compat_sys_semtimedop': '__ia32_sys_semtimedop_time32'}


def kp32_alias(alias, name, kname, vars_, args):
    """ALIAS on the ia32 entry point of a 32-bit task's syscall KNAME."""
    point = 'kprobe.function("%s")' % KP32_POINT.get(
        name, '__ia32_compat_sys_' + kname)
    body = cur_readers(body_of(name, vars_, args))
    return (['// %s: a 32-bit task\'s %s system call, entered.' % (alias, name),
             '// name: "%s"' % name,
             '// argstr: the arguments as strace shows them',
             'probe %s = %s ?' % (alias, point), '{'] + body +
            ['}', '// %s.return: a 32-bit task\'s %s system call, returning.' % (
                alias, name),
             '// name: "%s"' % name,
             '// retval: the value it returns',
             '// retstr: retval as strace shows it (an error by its errno name)',
             'probe %s.return = %s' % (alias, mux_points(MUX32[name]) if name in MUX32
                                       else point + '.return ?'), '{'] +
            (mux_test(name, MUX32[name]) if name in MUX32 else []) +
            ['\tname = "%s"' % name, '\tretval = returnval()',
             '\tretstr = return_str(%d, returnval())' % RETFORMAT.get(name, 1),
             '}', ''])


def body_of(name, vars_, args, defaults=False):
    """body() without the __nr variable the tracepoint aliases set; a
    32-bit alias's variables tie to the arguments as its syscall's do."""
    base = base32(name)
    lines = body(base, [v for v in vars_ if v[0] != '__nr'], args, defaults)
    return [l.replace('name = "%s"' % base, 'name = "%s"' % name)
            for l in lines]


def read_vars(path, mode=False):
    out = {}
    for line in open(path):
        if line.startswith('#'):
            continue
        f = line.split()
        if mode:
            out[f[0]] = (f[1], [tuple(v.split(':')) for v in f[2:]])
        else:
            out[f[0]] = [tuple(v.split(':')) for v in f[1:]]
    return out


def write_tp(meta, release):
    nr64, nr32 = unistd(release, 64), unistd(release, 32)
    coretext = open(CORE).read()
    by_hand = set(re.findall(r'^probe (tp_syscall\.\w+) =', coretext, re.M))
    # both aliases by hand in syscalls-core.stp: tp_syscall.pipe and the
    # others stap 4.8 also fires for the newer variant (pipe2 ...)
    both = by_hand & {a[:-len('.return')] for a in re.findall(
        r'^probe (tp_syscall\.\w+\.return) =', coretext, re.M)}
    out = ['// syscalls-tp.stp - tp_syscall.NAME (stap\'s variant of syscall.NAME on',
           '// the sys_enter and sys_exit tracepoints) and the syscall.NAME aliases',
           '// of 32-bit tasks.  Generated by gen/syscalls.py from',
           '// gen/syscalls_tp.vars and gen/syscalls32.vars: do not edit, rerun it.',
           '']
    for name, vars_ in sorted(read_vars(TP_VARS).items()):
        kname = KERNEL_NAME.get(name, name)
        if kname not in nr64:
            kname = name if name in nr64 else None
        args = meta.get(KERNEL_NAME.get(name, name)) or guess_args(vars_)
        if 'tp_syscall.' + name in both:
            continue
        if kname is not None:
            out += tp_alias('tp_syscall.' + name, name, vars_, args,
                            nr64[kname], False)
            continue
        b = base32(name)    # a syscall only 32-bit tasks have
        b = b[:-2] if b.endswith('16') else '_' + b if b == 'llseek' else b
        if b not in nr32:
            print('tp_syscall.%s: no number' % name, file=sys.stderr)
            continue
        args = meta.get(b) or args
        out += tp_alias('tp_syscall.' + name, name, vars_, args, nr32[b], True,
                        by_hand)
    for name, (mode, vars_) in sorted(read_vars(VARS32, True).items()):
        b = base32(name)
        args = meta.get(b) or meta.get(KERNEL_NAME.get(b, b)) or guess_args(vars_)
        if mode == 'kp':
            out += kp32_alias('syscall.' + name, name, b, vars_, args)
        elif b in nr32:
            out += tp_alias('syscall.' + name, name, vars_, args, nr32[b], True)
        else:
            print('syscall.%s: no ia32 number for %s' % (name, b), file=sys.stderr)
    with open(TP_OUT, 'w') as f:
        f.write('\n'.join(out))


def main():
    tb = '/var/cache/ctap/testbed'
    argv = [a for a in sys.argv[1:] if a != '--all']
    everything = len(argv) < len(sys.argv) - 1
    kernels = argv or [tb] + sorted(
        os.path.join(tb, 'kernels', k) for k in os.listdir(tb + '/kernels')
        if not os.path.islink(os.path.join(tb, 'kernels', k)) and
        os.path.exists(os.path.join(tb, 'kernels', k, 'vmlinux')))
    meta, entries, releases, weak = {}, set(), [], set()
    for k in kernels:
        kmeta_k = kmeta.syscalls(k + '/vmlinux', k + '/System.map')
        releases.append(open(k + '/release').read().strip())
        for name, args in kmeta_k.items():
            if name not in meta:
                meta[name] = args
            elif meta[name] != args:
                print('%s: %s(%s) differs: %s' % (
                    releases[-1], name, ', '.join(' '.join(a) for a in args),
                    ', '.join(' '.join(a) for a in meta[name])),
                    file=sys.stderr)
        entries |= kmeta.wrappers(k + '/System.map')
        weak |= kmeta.weak_wrappers(k + '/System.map')
    coretext = open(CORE).read()
    core = set(re.findall(r'^probe syscall\.(\w+) =', coretext, re.M))
    core |= set(re.findall(r'__x64_sys_(\w+)', coretext))
    stapvars = {}
    for line in open(VARS):
        if line.startswith('#'):
            continue
        f = line.split()
        stapvars[f[0]] = [tuple(v.split(':')) for v in f[1:]]
    out = ['// syscalls.stp - syscall.NAME and syscall.NAME.return for the',
           '// syscalls syscalls-core.stp does not cover.  Generated by',
           '// gen/syscalls.py from the syscall metadata of the kernels',
           '// ' + ', '.join(releases),
           '// and gen/syscalls.vars: do not edit, rerun it.', '']
    done = set(core) | set(read_vars(VARS32, True))  # 32-bit tasks' own
    for name in sorted(stapvars):
        kname = KERNEL_NAME.get(name, name)
        if name in done or kname not in meta or kname not in entries:
            continue
        done.add(name)
        done.add(kname)
        more = [v for v in VARIANTS.get(name, []) if v in meta and v in entries]
        if more:
            done.update(more)
            out += merged(name, [(v, meta[v]) for v in [kname] + more],
                          stapvars[name])
        else:
            out += alias(name, kname, stapvars[name], meta[kname], kname in weak)
    for kname in sorted(meta) if everything else []:
        if kname in done or kname not in entries or ONLY32.search(kname):
            continue
        args = meta[kname]
        out += alias(kname, kname, kernel_vars(args) + [('argstr', 'string')],
                     args)
    out += mux_aliases()
    with open(OUT, 'w') as f:
        f.write('\n'.join(out))
    write_tp(meta, releases[0])


if __name__ == '__main__':
    main()
