# Building a large string (about 4 MB) from f-strings and join.
def run():
    parts = []
    for i in range(200_000):
        parts.append(f"{i}:{i * 7 % 1000:04d}:{i:x}")
    text = ",".join(parts)
    lines = "\n".join([f"row {i:>6} | {i * 0.5:.1f} | {'even' if i % 2 == 0 else 'odd'}" for i in range(100_000)])
    return text, lines


text, lines = run()
print(len(text), text[:40], text[-40:])
print(len(lines), lines.count("even"), lines[-30:])
