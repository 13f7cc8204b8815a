# expect: B206
# assigning a trace function to a frame (store context)
def install(frame, fn):
    frame.f_trace = fn
