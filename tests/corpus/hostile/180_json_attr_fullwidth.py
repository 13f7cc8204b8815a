# expect: B102
# fullwidth json.load attribute NFKC-normalises to load
import json

print(json.ｌｏａｄ)
