# expect: B205, B206
# exception traceback -> frame -> caller's globals
try:
    1 / 0
except ZeroDivisionError as e:
    g = e.__traceback__.tb_frame.f_back.f_globals
    print(g)
