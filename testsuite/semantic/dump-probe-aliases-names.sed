/^\(generic\|vfs\|_vfs\|scheduler\|__scheduler\|perf\|stap\|staprun\|python\)\.\|^nfs\.fop\.sendfile/!d
s/ = .*//
