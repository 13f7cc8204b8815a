# expect: B205
# augmented assignment to a private attribute
from baton import inputs

inputs._calls += 1
