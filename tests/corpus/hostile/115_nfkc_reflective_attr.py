# expect: B206
# fullwidth gi_frame attribute
g = (x for x in [])
print(g.ｇｉ＿ｆｒａｍｅ)
