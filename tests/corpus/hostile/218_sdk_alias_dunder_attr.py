# expect: B205
# __globals__ of an SDK function reached through an alias
from baton import bash as b
print(b.__globals__)
