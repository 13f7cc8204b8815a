text = "to be or not to be that is the question"
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
for w in sorted(counts):
    print(w, counts[w])
longest = ""
for w in text.split():
    if len(w) > len(longest):
        longest = w
print(longest)
print(text.count("o"), text.upper().count("T"))
