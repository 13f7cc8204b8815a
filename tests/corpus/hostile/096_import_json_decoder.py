# expect: B101
# a submodule of json
import json.decoder

print(json.decoder.scanstring)
