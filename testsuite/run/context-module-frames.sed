s/0x[0-9a-f]\{16\}/0xADDR/g
s/\[[a-z0-9_]\++0x[0-9a-f]\+/[MOD+OFF/g
