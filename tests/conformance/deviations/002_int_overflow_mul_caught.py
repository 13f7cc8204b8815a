# Baton deviation: multiplication beyond signed 64-bit.
# CPython prints the big product; Baton must print "OverflowError caught" and then "after".
big = 9223372036854775807
try:
    print(big * 2)
except OverflowError:
    print("OverflowError caught")
print("after")
