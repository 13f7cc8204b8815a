# A module-level `try` body compiled as a function of its own (Baton): an exception no handler
# matches ends the run with the module's frame and line in its traceback.
try:
    print("the uncaught one")
    {}["missing"]
except ZeroDivisionError:
    print("not reached")
