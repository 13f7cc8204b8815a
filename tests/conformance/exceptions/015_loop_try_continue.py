results = []
for s in ["1", "x", "3", "", "5"]:
    try:
        n = int(s)
    except ValueError as e:
        results.append("bad")
        continue
    else:
        results.append(n * 2)
    finally:
        results.append("|")
print(results)
count = 0
while True:
    try:
        count += 1
        if count == 3:
            break
    finally:
        print("finally", count)
print("count", count)
