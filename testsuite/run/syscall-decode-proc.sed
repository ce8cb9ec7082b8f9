s/0x[0-9a-f]\{5,\}/ADDR/g
s/ARCH_SET_FS, [0-9]*/ARCH_SET_FS, N/
s/^\(t\{0,1\}g\{0,1\}kill\)([0-9, ]*SIG_0)/\1(PIDS, SIG_0)/
s/^clone = [0-9]*/clone = PID/
s/^waitid(P_PID, [0-9]*/waitid(P_PID, PID/
s/^wait4([0-9]*/wait4(PID/
s/^wait4 = [0-9]*/wait4 = PID/
