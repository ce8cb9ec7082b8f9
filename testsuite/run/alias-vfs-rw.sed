s/: \([0-9]*\), -\?[0-9]*, 0x[0-9a-f]*/: \1, POS, BUF/
/^WARNING: Number of errors: 0, skipped probes: [0-9]*$/d
