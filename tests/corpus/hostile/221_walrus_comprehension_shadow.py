# expect: B202
# a walrus in a never-run comprehension never binds eval
print([(eval := 1) for _ in []])
print(eval('1'))
