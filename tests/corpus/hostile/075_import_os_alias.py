# expect: B101
# import os under an innocent alias
import os as helpers

helpers.system("id")
