s/^ERROR: Internal Error: Process [0-9]* does not/ERROR: Internal Error: Process PID does not/
