s/^\( workload\)([0-9]*) stapio([0-9]*)$/\1(N) stapio(N)/
