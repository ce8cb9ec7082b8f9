# the signal mask is on the workload's stack: its address varies
s/\(signalfd4\{0,1\}(-1, \)0x[0-9a-f]*/\1ADDR/
