# f-strings with conversions, specs and nested specs
from baton import bash

result = bash("du -sb . | cut -f1")
size = int(result.stdout.strip() or "0")
name = "workspace"
width = 20
precision = 2
ratio = size / 1048576
print(f"{name!r:>{width}} {ratio:.{precision}f} MiB")
print(f"{size:,} bytes, {size:#x} hex, {size:>12}")
print(f"{'ok' if result.ok else 'failed':^10}")
print(f"{{not a field}} {name.upper()} {len(name) * 2}")
print(f"{[n * 2 for n in range(3)]} {dict(a=1)['a']}")
print(f"""multi
line {name}""")
