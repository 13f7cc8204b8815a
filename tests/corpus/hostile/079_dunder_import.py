# expect: B204
# __import__('os') as a call
__import__("os").system("id")
