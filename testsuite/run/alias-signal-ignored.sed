# the tapset's path, and its line (it moves as the tapset is edited)
s|^/.*/tapsets/linux/signal\.stp:[0-9]*:|TAPSET/linux/signal.stp:LINE:|
