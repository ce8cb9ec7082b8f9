# pids vary (not init's 1); how stapio starts the -c command (a signal to its child) is its own
/^stapio /d
s/ *\<[0-9]\{2,\}\> */ PID /g
