s|^/.*/tapsets/linux/memory\.stp:|TAPSET/linux/memory.stp:|
