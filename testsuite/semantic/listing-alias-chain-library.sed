# the library's top-level embedded C: stap lists its tapsets', ours are not its
/^# global embedded code$/d
/^%{.*%}$/d
