# expect: B202
# vars captured by a walrus
if (v := vars):
    print(v())
