s/^[0-9]* begat [0-9]*$/PARENT begat PID/
