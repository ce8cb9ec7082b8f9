s|^/.*/tapsets/linux/signal\.stp:|TAPSET/linux/signal.stp:|
