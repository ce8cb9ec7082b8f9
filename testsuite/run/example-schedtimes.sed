# the -c child before it execs the workload (stapio, or a shell) and the pid vary
/^sh /d
/^stapio /d
s/^workload  *[0-9][0-9]* /workload PID /
# times vary
s/^workload PID  *[0-9][0-9]*  *[0-9][0-9]*$/workload PID RUN OFF/
