s/^devstate: read fault \[man error::fault\] at 0x[0-9a-f]*$/devstate: read fault [man error::fault] at ADDR/
