import os
import json, subprocess
from baton import bash, run
from . import helpers
from json import *

result = bash("ls")
