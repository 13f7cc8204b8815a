def memoize(fn):
    cache = {}
    calls = [0]
    def wrapped(n):
        if n not in cache:
            calls[0] += 1
            cache[n] = fn(n)
        return cache[n]
    def stats():
        return calls[0], len(cache)
    return wrapped, stats
def slow_fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
fib, stats = memoize(slow_fib)
print(fib(50), stats())
print(fib(30), stats())
