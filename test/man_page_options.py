#!/usr/bin/env python3
"""man_page_options.py TOOL MAN_PAGE

Checks the man page against the tool: groff renders it without warnings,
and every option that `TOOL --help` lists under "libtorch-tidy options" is
named in it (as roff writes it, `\\-\\-name`). Prints the options it misses
and exits 1 when there is one.
"""
import re
import subprocess
import sys


def help_options(tool):
    text = subprocess.run([tool, "--help"], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout
    section = re.search(r"^libtorch-tidy options:\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    if not section:
        sys.exit("man_page_options: no 'libtorch-tidy options:' in %s --help" % tool)
    return sorted(set(re.findall(r"^  (--?[a-z][a-z0-9-]*)", section.group(1), re.M)))


def main():
    tool, page = sys.argv[1:3]
    warnings = subprocess.run(["groff", "-ww", "-z", "-man", page], stderr=subprocess.PIPE,
                              universal_newlines=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    with open(page) as f:
        roff = f.read()
    missing = [option for option in help_options(tool)
               if option.replace("-", "\\-") not in roff]
    for line in warnings.stderr.splitlines():
        print("groff: " + line)
    for option in missing:
        print("not in the man page: " + option)
    print("%d options of --help, %d not in the man page" % (len(help_options(tool)), len(missing)))
    sys.exit(1 if missing or warnings.stderr or warnings.returncode else 0)


if __name__ == "__main__":
    main()
