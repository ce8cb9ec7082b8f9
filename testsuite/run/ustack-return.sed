# the program and libc load at random addresses
s/0x[0-9a-f]\{12\}/0xADDR/g
