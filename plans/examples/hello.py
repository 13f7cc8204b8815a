# The smallest useful plan: compute something and print it.
def greet(name, *, punctuation="!"):
    return f"Hello, {name}{punctuation}"


names = ["plans", "models", "Baton"]
for name in names:
    print(greet(name))
print(f"{len(names)} greetings, longest: {max(names, key=len)!r}")
