# str.join of a generator expression (a literal separator: the loop runs inline) and of an
# iterator (a separator in a variable): the text is built as the items come, so the heap holds
# the text, not half a million item strs and a list of them at once.
N = 500_000
joined = "".join(str(i) for i in range(N))
print(len(joined), joined[-20:])
sep = ","
joined = sep.join(map(str, range(N)))
print(len(joined), joined[-20:])
