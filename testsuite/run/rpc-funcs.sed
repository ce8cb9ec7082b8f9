s/__rpc_format_servername: 0x[0-9a-f]*/__rpc_format_servername: ADDR/
s/^\(call [0-9]* [0-9]* [0-9]* [0-9]*\) [0-9.]*/\1 IP/
