s/ \$arg4=0x[0-9a-f]* \$arg5=0x[0-9a-f]* \$arg6=0x[0-9a-f]*$/ …/
