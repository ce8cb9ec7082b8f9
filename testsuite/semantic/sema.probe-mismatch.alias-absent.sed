# the tapset's path, and its line (it moves as the tapset is edited)
s|^/.*/tapsets/linux/memory\.stp:[0-9]*:|TAPSET/linux/memory.stp:LINE:|
