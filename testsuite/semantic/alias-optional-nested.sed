# stap's tapsets' global embedded code, not ours
/^# global embedded code$/,/^%}$/d
