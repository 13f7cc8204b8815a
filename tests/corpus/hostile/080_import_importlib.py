# expect: B101
# importlib.import_module
import importlib

importlib.import_module("os").system("id")
