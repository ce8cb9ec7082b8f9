# the Pass lines of -v: sizes and times vary
/^Pass [1-5]: /d
# stap's tapsets' global embedded code, not ours
/^# global embedded code$/,/^%}$/d
# _caller_match's body: stap's tapset's embedded C, not ours
/^_caller_match:long/,/^%} }$/{/^_caller_match:long/!d}
