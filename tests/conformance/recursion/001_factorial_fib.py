def fact(n):
    return 1 if n == 0 else n * fact(n - 1)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fact(n) for n in range(12)])
print([fib(n) for n in range(15)])
print(fact(20))
