# expect: B001
# A format spec's literal text is decoded like any str literal: `\N` without a `{name}` is
# CPython's SyntaxError (found by the mutation fuzzer, seed 59).
print(f'{7:\None}')
