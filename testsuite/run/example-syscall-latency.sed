# times vary: the count is checked, not the histogram
s/, [0-9][0-9]* us on average/, N us on average/
/^value |/d
/|/d
/^ *~$/d
/^$/d
