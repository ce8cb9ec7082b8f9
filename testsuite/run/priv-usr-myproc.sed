s/ at [^ ]*\/uconversions\.stp:[0-9:]*$/ at uconversions.stp/
