# expect: B202
# getattr inside a nested f-string format spec
print(f"{1:{getattr(1, 'real')}}")
