def add(a: int, b: int = 2) -> int:
    return a + b
def join(parts: list[str], sep: str = ",") -> str:
    return sep.join(parts)
x: int = 5
y: dict[str, int] = {"a": 1}
print(add(x), join(["a", "b"]), y)
def opt(v: int | None = None) -> str:
    return "none" if v is None else str(v)
print(opt(), opt(3))
