"""write_database.py <dir> <mock headers>: a compile_commands.json in <dir>
with an entry for each .cpp file there, compiled against <mock headers>."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import write_project  # noqa: E402

directory, mock = (os.path.abspath(a) for a in sys.argv[1:3])
write_project(directory, {}, "-std=c++17 -isystem " + mock,
              entries=sorted(n for n in os.listdir(directory) if n.endswith(".cpp")))
