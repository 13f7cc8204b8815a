# An exception raised again while another is handled takes that one as its context, as when
# first raised; `raise e from None` still hides it.
def parse(text):
    return int(text)


first = None
try:
    parse("x")
except ValueError as e:
    first = e

try:
    raise KeyError("k")
except KeyError as e:
    try:
        raise first
    except ValueError as again:
        print("caught", isinstance(again, ValueError), again)

try:
    {}["missing"]
except KeyError:
    raise first
