s|^/.*/tapsets/linux/scheduler\.stp:[0-9]*:[0-9]*:|TAPSET/linux/scheduler.stp:LINE:|
