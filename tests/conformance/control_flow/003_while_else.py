n = 0
while n < 3:
    print("n =", n)
    n += 1
else:
    print("while done", n)
n = 10
while n > 0:
    if n == 7:
        print("break at", n)
        break
    n -= 1
else:
    print("not printed")
while False:
    pass
else:
    print("empty while else")
