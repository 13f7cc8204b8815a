# expect: B101
# import in a branch that never runs
if False:
    import os
