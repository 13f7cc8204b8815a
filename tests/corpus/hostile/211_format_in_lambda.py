# expect: B401
# a hostile .format call in a lambda body
f = lambda: '{0.__class__}'.format(1)
print(f())
