s/0x[0-9a-f]\{5,\}/ADDR/g
s/ARCH_SET_FS, [0-9]*/ARCH_SET_FS, N/
s/^\(brk\|getpgid\|getsid\|set_tid_address\|getcwd\) = [0-9]*/\1 = N/
