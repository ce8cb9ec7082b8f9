s/near identifier .kernel_pointer. at .*conversions\.stp:[0-9:]*$/near identifier kernel_pointer in conversions.stp/
