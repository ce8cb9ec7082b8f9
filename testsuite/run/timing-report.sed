s/cycles: [0-9]*min\/[0-9]*avg\/[0-9]*max, variance: [0-9]*/cycles: Nmin\/Navg\/Nmax, variance: N/
/^kernel.trace/s/hits: [0-9]*/hits: N/
/lock contention occurred/d
