# stap skips some hits (a probe firing inside another on its CPU): how many varies
/^WARNING: Number of errors: 0, skipped probes: [0-9]*$/d
