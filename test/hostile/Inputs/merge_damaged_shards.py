#!/usr/bin/env python3
"""merge_damaged_shards.py IN OUT KIND

Writes to OUT a copy of the report IN with one number damaged or one
setting changed, as KIND says:
  json-negative-line   the first finding's line is -5
  json-huge-offset     the first finding's offset is 2^32
  json-libtorch        the LibTorch version is 2.15.0
  json-checks          one more check enabled
  sarif-negative-line  the first result's startLine is -5
  sarif-zero-column    the first result's startColumn is 0
  sarif-libtorch       the LibTorch version is 2.15.0
"""
import json
import sys


def main():
    src, dst, kind = sys.argv[1:4]
    with open(src) as f:
        doc = json.load(f)
    if kind.startswith("json-"):
        finding = next(f for u in doc["units"] for f in u["findings"])
        if kind == "json-negative-line":
            finding["location"]["begin"]["line"] = -5
        elif kind == "json-huge-offset":
            finding["location"]["offset"] = 2 ** 32
        elif kind == "json-libtorch":
            doc["libtorchVersion"] = "2.15.0"
        elif kind == "json-checks":
            doc["checksEnabled"].append("libtorch-anomaly-detection-enabled")
    else:
        run = doc["runs"][0]
        region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
        if kind == "sarif-negative-line":
            region["startLine"] = -5
        elif kind == "sarif-zero-column":
            region["startColumn"] = 0
        elif kind == "sarif-libtorch":
            run["properties"]["libtorchVersion"] = "2.15.0"
    with open(dst, "w") as f:
        json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main()
