# Small ints are 63-bit inside Baton; arithmetic across 2**62 must stay exact (boxed ints).
top = 2**62 - 1
bottom = -(2**62)
print(top, bottom, top + 1, bottom - 1, top + top, bottom + bottom)
print(top - -1, bottom - 1, 1 - bottom, -1 - top)
x = top
x += 1
print(x, x - 1, isinstance(x, int))
y = bottom
y -= 1
print(y, y + 1)
print(2**31 * 2**31, (2**31 - 1) * (2**31 - 1), -(2**31) * 2**31, 3037000499 * 3037000499)
print(top * 1, top * -1, bottom * 1, 2 * top, -2 * bottom if False else 0)
print(bottom // -1, bottom % -1, bottom // 1, top // -1)
print(-7 // 2, 7 // -2, -7 % 2, 7 % -2, -7 % -2, 0 % 5, 0 // -5)
print(-(2**62) >> 1, top >> 61, top >> 62, top >> 63, -1 >> 63, 5 >> 0, -5 >> 1)
print(top & bottom, top | bottom, top ^ bottom, -1 & top, 6 ^ 3, 6 | 3, 6 & 3)
print(top < top + 1, top + 1 > top, bottom - 1 < bottom, top == 2**62 - 1, top != top + 1)
print(1 < 1.5, 2 <= 2.0, 3 == 3.0, 2**53 + 1 == float(2**53 + 1), 1 == True, 0 < True)
try:
    print(5 // 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    print(5 % 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    print(1 >> -1)
except ValueError as e:
    print("ValueError", e)
acc = 0
i = 2**62 - 5
while i < 2**62 + 5:
    acc += i % 7
    i += 1
print(acc, i)
print(1 + 2.5, 3 - True, "a" * 3, [1] * 2, 7 * 0.5, 10 % 3.5, 7 // 2.0)
