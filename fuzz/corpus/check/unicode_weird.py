ñame = 'ünïcødé ✓ 🎉'
Δ = 1
变量 = Δ + 1
x​ = 2
print(ñame, 变量, '\u202e')
# ﻿ bom in comment
