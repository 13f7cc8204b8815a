def classify(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    else:
        return "large"
for n in [-5, 0, 3, 10, 99]:
    print(n, classify(n))
x = 7
if x % 2:
    print("odd")
if not x:
    print("never")
else:
    print("truthy")
