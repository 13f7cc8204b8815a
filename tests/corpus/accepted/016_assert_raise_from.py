# assert and raise ... from ...
import json
from baton import bash, llm


def parse_reply(reply):
    try:
        data = json.loads(reply)
    except json.JSONDecodeError as err:
        raise ValueError("model did not return JSON") from err
    assert isinstance(data, dict), "expected an object"
    if "patch" not in data:
        raise KeyError("patch")
    return data


reply = llm('Return {"patch": "..."} for the failing test.')
try:
    data = parse_reply(reply)
except (ValueError, KeyError, AssertionError) as err:
    raise RuntimeError("no usable patch") from None
assert bash("git apply -", input=data["patch"]).ok
