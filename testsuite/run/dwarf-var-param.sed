s/\(file\|buf\|pos\)=0x[0-9a-f]*/\1=ADDR/g
