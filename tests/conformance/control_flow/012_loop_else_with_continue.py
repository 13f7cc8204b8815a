for i in range(4):
    if i % 2:
        continue
    print("even", i)
else:
    print("else after continue loop")
count = 0
while count < 6:
    count += 1
    if count < 6:
        continue
    print("reached", count)
else:
    print("while else", count)
