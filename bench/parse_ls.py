# Parsing 10,000 lines of `ls -l`-like command output (generated) with split and strip.
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
EXTS = ["txt", "py", "rs", "json", "md", "log"]


def make_listing(n):
    lines = ["total " + str(n * 4)]
    x = 7
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        mode = "drwxr-xr-x" if x % 13 == 0 else "-rw-r--r--"
        size = x % 1_000_000
        month = MONTHS[x % 12]
        day = x % 28 + 1
        name = f"file_{i}.{EXTS[x % 6]}"
        lines.append(f"{mode} {x % 3 + 1:>2} user  staff {size:>8} {month} {day:>2} 10:{x % 60:02d} {name}  ")
    return "\n".join(lines) + "\n"


def parse(text):
    sizes = {}
    dirs = 0
    largest = ("", -1)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("total "):
            continue
        fields = line.split()
        if fields[0].startswith("d"):
            dirs += 1
            continue
        size = int(fields[4])
        name = fields[-1].strip()
        ext = name.rsplit(".", 1)[-1]
        sizes[ext] = sizes.get(ext, 0) + size
        if size > largest[1]:
            largest = (name, size)
    return sizes, dirs, largest


listing = make_listing(10_000)
sizes, dirs, largest = parse(listing)
print(len(listing), dirs, largest, sorted(sizes.items()))
