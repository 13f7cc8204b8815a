# expect: B203
# builtin Ellipsis is outside the supported set
print(Ellipsis)
