s/at 0x[0-9a-f]* near operator .@cast. at .*vfs\.stp:[0-9:]*$/at ADDR near operator @cast in vfs.stp/
