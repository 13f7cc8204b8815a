print(-7 // 2, 7 // -2, -7 // -2, 7 // 2)
print(-7 % 2, 7 % -2, -7 % -2, 7 % 2)
print(0 // 5, 0 % 5, -1 // 10, -1 % 10)
for a in [9, -9]:
    for b in [4, -4]:
        q = a // b
        r = a % b
        print(a, b, q, r, q * b + r == a)
