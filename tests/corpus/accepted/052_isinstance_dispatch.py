# dispatch on value shape with isinstance and tuples of types
import json
from baton import llm


def render(value, indent=0):
    pad = " " * indent
    if value is None or isinstance(value, (bool, int, float)):
        return pad + json.dumps(value)
    if isinstance(value, str):
        return pad + value
    if isinstance(value, dict):
        return "\n".join(f"{pad}{k}:\n{render(v, indent + 2)}" for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        return "\n".join(render(v, indent + 2) for v in value)
    raise TypeError("cannot render value")


reply = llm('Describe the repository as JSON with keys "name", "modules" and "risks".')
try:
    print(render(json.loads(reply)))
except (json.JSONDecodeError, TypeError) as e:
    print("raw reply:", reply)
