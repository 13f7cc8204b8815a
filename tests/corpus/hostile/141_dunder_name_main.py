# expect: B204
# the __name__ global
if __name__ == "__main__":
    print("hi")
