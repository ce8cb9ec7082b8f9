# the functions for the alias's DWARF accesses are named by the tapset's path, which is where ours is installed
s/__private_[A-Za-z0-9_]*_tapsets\{0,1\}_linux_vfs_stp__/__private_TAPSETDIR_linux_vfs_stp__/
