# pointers into the PIE, moved by ASLR
s/\(head\|tag\)=0x[0-9a-f]*/\1=ADDR/g
