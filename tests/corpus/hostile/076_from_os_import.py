# expect: B101
# from os import system
from os import system

system("id")
