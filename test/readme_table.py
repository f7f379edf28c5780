#!/usr/bin/env python3
"""readme_table.py README.md: prints the README's generated check table and
fails if a linked docs page is missing."""
import os
import re
import sys

readme = sys.argv[1]
text = open(readme, encoding="utf-8").read()
m = re.search(r"<!-- check-table:begin[^>]*-->\n(.*?)<!-- check-table:end -->",
              text, re.S)
if not m:
    sys.exit("%s: no check-table markers" % readme)
table = m.group(1)
root = os.path.dirname(os.path.abspath(readme))
for page in re.findall(r"\]\((docs/checks/[^)]+\.md)\)", table):
    if not os.path.isfile(os.path.join(root, page)):
        sys.exit("%s: linked page %s does not exist" % (readme, page))
sys.stdout.write(table)
