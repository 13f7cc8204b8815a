def f():
    try:
        raise TypeError("from try")
    finally:
        print("finally ran")
f()
