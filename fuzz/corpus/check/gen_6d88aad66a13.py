import os
import subprocess as sp
from sys import m
continue
def f():
    nonlocal za, b, args, c, d,odules
mbda: lambimport__('os').system('id')
