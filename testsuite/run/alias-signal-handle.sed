s/^systgkill [0-9]*, [0-9]*, SIGABRT [0-9]* /systgkill PID, PID, SIGABRT PID /
