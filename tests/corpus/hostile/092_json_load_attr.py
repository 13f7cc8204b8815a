# expect: B102
# json.load (file I/O) is not provided
import json

print(json.load("/etc/passwd"))
