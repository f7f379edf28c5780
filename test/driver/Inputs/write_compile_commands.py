"""write_compile_commands.py OUT DIR FILE... -- FLAGS...: a compile database."""
import json
import sys

args = sys.argv[1:]
split = args.index("--")
out, directory, files, flags = args[0], args[1], args[2:split], args[split + 1:]
with open(out, "w") as f:
    json.dump([{"directory": directory, "file": src,
                "arguments": ["/usr/bin/c++"] + flags + ["-c", src]}
               for src in files], f, indent=2)
