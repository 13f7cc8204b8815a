count = 0
def bump():
    count += 1
    return count
print("calling")
bump()
