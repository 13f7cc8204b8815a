# expect: B204
# __loader__ / __spec__ module globals
print(__loader__)
