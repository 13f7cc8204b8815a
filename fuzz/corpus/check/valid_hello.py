from baton import log

log("hello")
print("done")
