# expect: B102
# json.load through an alias
import json as j

print(j.load("/etc/passwd"))
