s/ at [^ ]*\/uconversions\.stp:[0-9:]*$/ at uconversions.stp/
s/ for pid [0-9]* (euid 0) / for pid PID (euid 0) /
