s/probe overhead ([0-9]* cycles)/probe overhead (N cycles)/
