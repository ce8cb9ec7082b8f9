# the tapset's path and the line in it vary
s|^.*/tapsets/linux/conversions\.stp:[0-9]*:[0-9]*:|conversions.stp:LINE:COL:|
