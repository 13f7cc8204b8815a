type Alias = list[int]
def f[T](x: T) -> T:
    return x
