# expect: B001
# Python 3.11 refuses a backslash in an f-string's expression part, even inside a string
# literal there (only 3.12 allows it); the parser accepted it (found by the mutation fuzzer,
# seed 73).
print(f'{"\x00":^5}')
