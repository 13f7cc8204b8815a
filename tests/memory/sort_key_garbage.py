# Garbage made inside a sort's key function: each of the first sort's key calls makes and
# drops 300 MB of 10 KB strs, more than the 256 MiB cap, so it is collected while the key runs
# (the sort's records, the list being sorted and the key function stay rooted meanwhile).
N = 30000
words = ["b", "a", "c"]
print(sorted(words, key=lambda w: (sum(len(w * 10000) for i in range(N)), w)))
nums = [3, 1, 2]
nums.sort(key=lambda k: k - sum(len(str(i) * 2000) for i in range(N // 3)), reverse=True)
print(nums)
