# expect: B202
# eval bound to another name, then called
e = eval
e("1")
