s/0x[0-9a-f]\{5,\}/ADDR/g
s/si_pid=[0-9][0-9]*/si_pid=N/g
