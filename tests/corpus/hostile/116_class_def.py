# expect: B301
# class definitions
class Evil:
    pass
