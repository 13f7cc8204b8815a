print(int("42"))
n = int("abc")
