# An exception raised while another is handled prints after it, and a cause before its effect,
# each traceback from the frame that handled it to where it was raised (CPython's chain).
def parse(s):
    return int(s)
def load(s):
    try:
        return parse(s)
    except ValueError as e:
        raise RuntimeError("load failed") from e
def main():
    try:
        load("x")
    except RuntimeError:
        try:
            {}["k"]
        finally:
            print("cleanup runs")
main()
