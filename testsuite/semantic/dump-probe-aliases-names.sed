/^\(generic\|vfs\|_vfs\|scheduler\|__scheduler\|perf\|stap\|staprun\|python\|timer\)\.\|^nfs\.fop\.sendfile/!d
s/ = .*//
