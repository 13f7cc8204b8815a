big = 9223372036854775807
small = -9223372036854775807 - 1
print(big)
print(small)
print(big - 1, small + 1)
print(big // 2, small // 2)
print(big % 10, small % 10)
print(-big)
print(2 ** 62, 2 ** 62 - 1 + 2 ** 62)
print(3037000499 * 3037000499)
print(big == 2 ** 62 - 1 + 2 ** 62)
