data = [5, 3, 9, 1, 7]
print(len(data), sum(data) / len(data), sorted(data)[len(data) // 2])
print(list(zip(range(len(data)), sorted(data, reverse=True))))
idx = max(range(len(data)), key=lambda i: data[i])
print(idx, data[idx])
print(dict(enumerate(reversed(data))))
print(tuple(map(lambda x: x % 3, data)), set(map(lambda x: x % 2, data)) == {1})
print(list(filter(lambda p: p[0] < p[1], zip(data, data[1:]))))
