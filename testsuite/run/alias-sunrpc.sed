s/__rpc_format_servername: 0x[0-9a-f]*/__rpc_format_servername: ADDR/
# the tapset's path and line in a build error (6.12, 7.2)
s|^/.*/tapsets/linux/rpc\.stp:[0-9]*:[0-9]*:|TAPSET/linux/rpc.stp:LINE:|
