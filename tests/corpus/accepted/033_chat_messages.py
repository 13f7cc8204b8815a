# llm with a message list and every keyword option
from baton import llm, inputs, log

history = [
    {"role": "system", "content": "You are a careful senior engineer."},
    {"role": "user", "content": inputs.get("question", "Why is CI slow?")},
]
for turn in range(3):
    reply = llm(history, model=inputs.get("model"), temperature=0.3, max_tokens=800, stop=["\n\n\n"])
    history.append({"role": "assistant", "content": reply})
    if "FINAL" in reply:
        break
    history.append({"role": "user", "content": "Go deeper, then end with FINAL."})

log("turns", len(history))
print(history[-1]["content"])
