# Module-level `try` statements in loops: Baton compiles a body that no `break`, `continue` or
# `raise` leaves as a function of its own; the loop's variables, fast paths and jumps, the
# handlers' own jumps, `finally` bodies and names bound in the body behave as inline.
total = 0
for i in range(6):
    try:
        total += 10 // (i - 3)
        for j in range(5):
            if j == 2:
                break
            total += j
        else:
            total -= 1000
    except ZeroDivisionError as e:
        print("at", i, e)
        continue
    finally:
        total += 1
    print("after", i, total)
print("total", total)

found = None
n = 0
while n < 10:
    n += 1
    try:
        value = [5, 7, 9][n]
        last_bound = n
    except IndexError:
        print("no item", n)
        break
    else:
        found = value
print(n, found, last_bound)

seen = []
for word in ["1", "x", "3", "", "5"]:
    try:
        seen.append(int(word) * 2)
        words = [w for w in word]
    except ValueError as err:
        seen.append(str(err)[:20])
        if word == "":
            break
print(seen, words)

count = 0
for i in range(3):
    for k in range(3):
        try:
            count += i * k
            if (i * k) % 2:
                count += 100
        finally:
            count += 1
print("count", count)

# Many rounds: each outlined body gives back its shadow frame however it ends.
ok = 0
for i in range(20000):
    try:
        x = {"k": i}["k" if i % 3 else "missing"]
        ok += 1
    except KeyError:
        pass
print("ok", ok)
