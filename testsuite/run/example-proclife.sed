# pids and times vary
s/ *\<[0-9]\{2,\}\> */ PID /g
s/after [0-9A-Z]* ms/after N ms/
