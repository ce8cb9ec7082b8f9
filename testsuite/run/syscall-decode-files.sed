s/0x[0-9a-f]\{5,\}/ADDR/g
