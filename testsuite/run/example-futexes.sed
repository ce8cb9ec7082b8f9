# the -c child before it execs the workload (stapio, or a shell) and the pid vary
/^sh /d
/^stapio /d
s/^workload  *[0-9][0-9]* /workload PID /
# the futex address and the times vary
s/^workload PID  *0x[0-9a-f]*  *\([0-9][0-9]*\) .*/workload PID ADDR \1 TIMES/
