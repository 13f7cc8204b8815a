# try/except/else/finally with a tuple of exception types
import json
from baton import bash, log

config = {}
try:
    raw = bash("cat baton.json").stdout
    config = json.loads(raw)
    timeout = int(config["timeout"])
except (KeyError, ValueError) as e:
    log("bad config, using defaults", repr(e))
    timeout = 60
except Exception as e:
    log("unexpected", str(e))
    raise
else:
    log("config loaded", config)
finally:
    log("done reading config")

result = bash("make build", timeout=timeout)
print(result.ok, timeout)
