# expect: B202
# a module-level variable annotation is evaluated
x: exec('y = 1') = 1
