# expect: B202
# mathematical monospace letters NFKC-normalise to type
print(𝚝𝚢𝚙𝚎(1))
