# the tapset's path and the line in it vary
s|^.*/tapsets/linux/memory\.stp:[0-9]*:[0-9]*:|memory.stp:LINE:COL:|
