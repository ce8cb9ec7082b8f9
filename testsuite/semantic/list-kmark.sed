# the module is one per kernel: /var/tmp/ctap-kmark/RELEASE/sdtmod.ko
s|/var/tmp/ctap-kmark/[^/]*/sdtmod\.ko|/var/tmp/ctap-kmark/RELEASE/sdtmod.ko|g
