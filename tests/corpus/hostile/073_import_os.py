# expect: B101
# import os
import os

os.system("id")
