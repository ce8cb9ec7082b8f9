s/__rpc_format_servername: 0x[0-9a-f]*/__rpc_format_servername: ADDR/
