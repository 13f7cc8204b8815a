xs = [5, 2, 8, 1, 9, 3]
xs.sort()
print(xs)
xs.sort(reverse=True)
print(xs)
xs.reverse()
print(xs)
pairs = [(2, "b"), (1, "z"), (2, "a"), (1, "a")]
pairs.sort()
print(pairs)
pairs.sort(key=lambda p: p[1])
print(pairs)
print(sorted(pairs, key=lambda p: -p[0]))
words = ["bb", "a", "ccc", "dd", "e"]
words.sort(key=len)
print(words)
