# expect: B202, B205
# object.__subclasses__() directly
print(object.__subclasses__())
