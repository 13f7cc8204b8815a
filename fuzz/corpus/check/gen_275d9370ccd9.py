sx = f':{c}{:{a}'
