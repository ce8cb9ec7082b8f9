# the Pass lines of -v: sizes and times vary
/^Pass [1-5]: /d
