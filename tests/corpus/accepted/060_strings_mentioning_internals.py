# string contents that mention dunders, imports and eval are just data
from baton import bash, llm

table = {"__class__": 1, "_private": 2, "gi_frame": 3}
print(table["__class__"], table.get("_private"), sorted(table))
script = "import os; print(os.getcwd())"
out = bash(f"python3 -c '{script}'").stdout
advice = llm("Explain why eval() and __import__ are dangerous in one sentence.")
note = "use getattr(obj, '__dict__') only in trusted code"
pattern = "{0.__class__}"
print(out, advice, note, len(pattern), "%s and %d" % ("percent", 5))
