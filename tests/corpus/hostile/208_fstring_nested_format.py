# expect: B401
# a hostile .format call inside an f-string expression
print(f"{'{0.__class__}'.format(1)}")
