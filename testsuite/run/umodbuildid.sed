s/^[0-9a-f]\{40\}$/BUILDID/
s/umodbuildid 0x[0-9a-f]* unknown/umodbuildid ADDR unknown/
s/near identifier .umodbuildid. at .*context\.stp:[0-9:]*$/near identifier umodbuildid/
s/near identifier .umodbuildid. at .*ucontext\.stp:[0-9:]*$/near identifier umodbuildid/
