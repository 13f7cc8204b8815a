# str.format fields whose names look reflective but are plain keywords; bound .format of a safe literal
from baton import log

fmt = "{}: {}".format
print(fmt("stage", "ok"))
print("{mro} {f_back} {gi_frame}".format(mro="a", f_back="b", gi_frame="c"))
print("{_hidden}".format(_hidden="underscore keyword field"))
print("{0:>{1}}".format("right", 12))
print("{:{}{}}".format("x", ">", 4))
print("{!r:^20}".format("centered"))
print("{:%}".format(0.25), "{:e}".format(12345.678), "{:b}".format(5))
log("{0}{0}{0}".format("-"))
