import json
from baton import log

def parse(text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        log("bad json", str(err))
        return None
    except (KeyError, ValueError):
        raise
    else:
        return value
    finally:
        log("parsed")

for i, raw in enumerate(['{"a": 1}', "nope"]):
    while True:
        out = parse(raw)
        break
    else:
        pass
    assert out is None or isinstance(out, dict), "bad"
