# register values differ from run to run
s/[0-9a-f]\{4,\}/X/g
