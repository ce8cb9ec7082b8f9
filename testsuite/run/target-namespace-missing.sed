s|near identifier .ns_pid. at .*/tapsets*/linux/[a-z-]*\.stp:[0-9]*:[0-9]*$|near identifier 'ns_pid' at TAPSET|
