x = f'{'
y = f'{1!z}'
z = f'{a:{b:{c}}}'
