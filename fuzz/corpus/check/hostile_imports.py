import os
import subprocess as sp
from sys import modules
from . import sibling
from json import *
from baton import nonexistent
import baton.secret
__import__('os').system('id')
