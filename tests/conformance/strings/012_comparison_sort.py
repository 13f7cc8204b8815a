words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words))
print(sorted(words, key=str.lower))
print(sorted(words, key=len))
print(sorted(words, key=lambda w: (len(w), w), reverse=True))
print(max(words), min(words, key=len))
print("apple" > "Apple", "a" * 3 == "aaa")
