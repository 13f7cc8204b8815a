# iter(callable, sentinel) ended by the callable's StopIteration, many times in one frame: each
# ending gives back the frames the exception abandoned (their shadow frames too), so the 20,000
# iterators below end as CPython's do, not in a RecursionError once the abandoned frames have
# filled the shadow stack (which happened after ~4,000).
def make(limit):
    n = [0]

    def f():
        n[0] += 1
        if n[0] > limit:
            raise StopIteration
        return n[0]

    return f


total = 0
for i in range(20000):
    for x in iter(make(i % 3), None):
        total += x
print(total)
print(sum(iter(make(5), 99)), list(iter(make(2), 0)))
