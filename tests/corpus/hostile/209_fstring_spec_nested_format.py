# expect: B401
# a hostile .format call inside an f-string's nested format spec
print(f"{'x':{'{0.__class__}'.format(1)}}")
