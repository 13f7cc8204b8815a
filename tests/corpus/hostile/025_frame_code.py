# expect: B206
# f_code.co_code bytecode access
def peek(frame):
    return frame.f_code.co_code
