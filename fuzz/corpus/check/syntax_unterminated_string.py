s = '''never closed
x = 1
