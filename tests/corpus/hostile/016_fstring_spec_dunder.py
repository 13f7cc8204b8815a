# expect: B205
# attribute walk inside a nested f-string format spec
x = 1
y = 2
print(f"{x:{y.__class__}}")
