s/near identifier .string_to_fp. at .*floatingpoint\.stp:[0-9:]*$/near identifier string_to_fp in floatingpoint.stp/
