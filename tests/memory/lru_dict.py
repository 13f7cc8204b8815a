# An LRU cache of 100 entries as a dict, under 200,000 inserts and deletes.
cache = {}
hits = misses = 0
for i in range(200000):
    key = f"k{(i * 7919 + i // 3) % 150}"
    if key in cache:
        hits += 1
        value = cache.pop(key)
    else:
        misses += 1
        value = [key, i]
    cache[key] = value
    if len(cache) > 100:
        del cache[next(iter(cache))]
print(len(cache), hits, misses, list(cache)[:3])
