# the -c child before it execs the workload (stapio, or a shell) and the pid vary
/^sh /d
/^stapio /d
s/^workload  *[0-9][0-9]* /workload PID /
# the workload's minor faults vary by one or two with how the -c command was started
s/^workload PID  *[0-9][0-9]*  *[0-9][0-9]*  *\([0-9][0-9]*\)$/workload PID FAULTS WRITES \1/
