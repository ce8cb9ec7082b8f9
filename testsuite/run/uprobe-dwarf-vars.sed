# .next is a pointer into the PIE, moved by ASLR
s/\.next=0x[0-9a-f]*/.next=ADDR/g
