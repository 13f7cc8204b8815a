# expect: B206
# tb_next / tb_frame / f_locals on a traceback object obtained elsewhere
def walk(tb):
    while tb:
        print(tb.tb_frame.f_locals)
        tb = tb.tb_next
