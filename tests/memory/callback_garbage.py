# Garbage made inside one builtin's callbacks: sum, min, max, any, all, list, tuple, sorted and
# join each run a generator expression (or map's function, or a key function) 30,000 times,
# each making a 10 KB str and dropping it: 300 MB per call, more than the 256 MiB cap.
N = 30000
print(sum(len(str(i) * 2000) for i in range(N)))
print(max(range(N), key=lambda i: len(str(i) * 2000)))
print(min(len(str(i) * 2000) for i in range(N)))
print(any(len(str(i) * 2000) < 0 for i in range(N)), all(len(str(i) * 2000) > 0 for i in range(N)))
print(len(list(len(str(i) * 2000) for i in range(N))))
print(len(tuple(map(lambda i: len(str(i) * 2000), range(N)))))
print(sorted(len(str(i) * 2000) for i in range(N))[-1])
sep = "-"
print(len(sep.join(str(len(str(i) * 2000)) for i in range(N))))
