def is_pal(s):
    t = "".join(c.lower() for c in s if c.isalnum())
    return t == t[::-1]
for s in ["racecar", "A man, a plan, a canal: Panama", "hello", "", "ab"]:
    print(repr(s), is_pal(s))
def rotate(xs, k):
    k = k % len(xs)
    return xs[-k:] + xs[:-k]
print(rotate([1, 2, 3, 4, 5], 2), rotate([1, 2, 3], -1), rotate([1, 2], 4))
