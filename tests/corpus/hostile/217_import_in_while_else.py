# expect: B101
# import inside a while loop's else clause
while False:
    pass
else:
    import sys
