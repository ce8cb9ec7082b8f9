s/ *[0-9]\+ workload([0-9]\+):/T workload(TID):/
s/^ *[0-9]\+ : */T :/
