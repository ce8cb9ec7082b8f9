s|^[^ ]*/tapsets/linux/|tapsets/linux/|
