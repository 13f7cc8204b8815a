def is_even(n):
    return True if n == 0 else is_odd(n - 1)
def is_odd(n):
    return False if n == 0 else is_even(n - 1)
print(is_even(10), is_odd(7), is_even(3))
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print([fact(i) for i in range(10)], fact(20))
