# expect: B101
# import in unreachable code after return
def f():
    return 1
    import subprocess

print(f())
