# expect: B101
# import of a dotted submodule
import os.path

print(os.path.exists("/"))
