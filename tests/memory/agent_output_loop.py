# An agent-style loop over one 14 KB command output, its history kept and trimmed.
output = "\n".join(
    f"-rw-r--r-- 1 dev staff {(i * 7919) % 99991:>6} Jan {i % 28 + 1:>2} 12:00 file_{i:04}.txt"
    for i in range(230)
)
history = []
for step in range(3000):
    rows = output.splitlines()
    sizes = [int(r.split()[4]) for r in rows]
    history.append(f"step {step}: {sum(sizes)}")
    history = history[-20:]
print(len(output), len(history), history[0], history[-1])
