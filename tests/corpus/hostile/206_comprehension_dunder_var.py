# expect: B204
# a dunder comprehension variable
print({__k__: 1 for __k__ in 'a'})
