# An agent history of 4,000 message dicts; each step rebuilds its prompt from the last 30.
history = []
total = 0
for step in range(4000):
    history.append({"role": "user" if step % 2 == 0 else "assistant",
                    "content": f"message {step}: " + "x" * (step % 50)})
    prompt = "\n".join(f"{m['role']}: {m['content']}" for m in history[-30:])
    total += len(prompt)
print(len(history), total)
