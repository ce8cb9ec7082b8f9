#!/bin/bash
# modinfo.sh - --modinfo NAME=VALUE puts MODULE_INFO(NAME, "VALUE") into
# the built module, as stap 4.8 does: the .ko's .modinfo section (what
# modinfo(8) reads) holds NAME=VALUE.
# Run by run-tests with $STAP set; exit 0 = pass.
. "$(dirname "$0")/lib/workdir.bash" modinfo

"$STAP" -p4 -m modinfo_t --modinfo=ctap_note=hello --modinfo=second_1='a b' \
	-e 'probe begin { exit() }' >out 2>err || bad "build failed"
# the NUL-separated NAME=VALUE strings of .modinfo, one per line
objcopy -O binary --only-section=.modinfo modinfo_t.ko modinfo.bin &&
	tr '\0' '\n' <modinfo.bin >modinfo.txt || bad "no .modinfo section"
grep -qx 'ctap_note=hello' modinfo.txt || bad "no ctap_note=hello: $(cat modinfo.txt)"
grep -qx 'second_1=a b' modinfo.txt || bad "no 'second_1=a b': $(cat modinfo.txt)"
exit $status
