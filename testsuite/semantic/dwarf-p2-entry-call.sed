# stap 4.8 lists a function per DWARF access; ours reads them inline
/__dwarf_tvar_get_/d
