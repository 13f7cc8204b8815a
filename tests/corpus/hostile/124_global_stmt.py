# expect: B304
# global declaration
count = 0

def bump():
    global count
    count += 1
