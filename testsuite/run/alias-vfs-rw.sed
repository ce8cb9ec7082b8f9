s/: \([0-9]*\), -\?[0-9]*, 0x/: \1, POS, 0x/
/^WARNING: Number of errors: 0, skipped probes: [0-9]*$/d
