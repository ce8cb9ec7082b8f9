s/^[A-Za-z0-9_]* mitigation /MODULE mitigation /; s/^[A-Za-z0-9_]* \(disabling\|reenabling\)/MODULE \1/
