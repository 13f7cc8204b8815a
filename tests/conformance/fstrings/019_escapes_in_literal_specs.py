# Escapes in an f-string's literal format spec are decoded as in any str literal: \x3e is '>',
# \x00 a NUL (no type to a float, an unknown code to an int); a raw f-string keeps them.
v = 1.5
print(repr(f'{v:\x3e5}'))
print(repr(f'{v:\n<5}'))
print(repr(f'{v:\x00}'))
print(repr(rf'{v:\n<5}' if False else 'raw skipped'))
for x in [1, 'a', True]:
    try:
        print(repr(f'{x:\x00}'))
    except ValueError as e:
        print(repr(e))
print(f'{"a":\u00e9^5}', f'{7:\x2b}')
