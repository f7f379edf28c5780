#!/usr/bin/env python3
"""write_line_hash_sources.py DIR

Writes sources whose findings sit on lines that GitHub's line hash treats
specially, for test/driver/sarif-line-hash.test: tabs and runs of spaces,
CRLF line breaks, a lone CR, non-ASCII text (two-, three- and four-byte UTF-8,
a byte that is not UTF-8), identical lines, and a finding on the last line of
a file without a final line break. Written here, not stored, so that no
checkout setting (core.autocrlf) can change the bytes.
"""
import os
import sys

HEADER = (b"#include <torch/torch.h>\n"
          b"#include <cstddef>\n"
          b"struct Points : torch::data::datasets::Dataset<Points> {\n"
          b"  torch::data::Example<> get(size_t index) override {\n"
          b"    return {torch::zeros({2}), torch::zeros({1})};\n"
          b"  }\n"
          b"  c10::optional<size_t> size() const override { return 64; }\n"
          b"};\n")
LOADER = b"auto l%d = torch::data::make_data_loader(Points(), 64);"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    crlf = [
        b"// \xc3\x9cberschrift: na\xc3\xafve \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80",
        b"void crlf() {",
        b"\t" + LOADER % 1 + b"\t// caf\xc3\xa9",
        b"  \t  " + LOADER % 2 + b" /* \xf0\x9f\x98\x80 \xe2\x82\xac */",
        b"\t" + LOADER % 3,
        b"\t" + LOADER % 7 + b"  ",
        b"\t\t" + LOADER % 4,
        # The hash reads 100 units from the start of a line: these two lines
        # hash alike (":1", ":2").
        b"\t/* " + b"same-start-" * 9 + b" */ " + LOADER % 5,
        b"    /* " + b"same-start-" * 9 + b" */ " + LOADER % 6,
        b"}",
    ]
    with open(os.path.join(out, "crlf.cpp"), "wb") as f:
        f.write(HEADER.replace(b"\n", b"\r\n") + b"\r\n".join(crlf) + b"\r\n")
    mixed = (HEADER
             + b"// a lone carriage return ends this line\r// and this one\n"
             + b"// not UTF-8: \xff\xfe \xc3 \xe2\x82\n"
             + b"void mixed() {\n"
             + b"    " + LOADER % 1 + b"   // \xe6\x97\xa5\xe6\x9c\xac\n"
             + b"\t" + LOADER % 3 + b"\n"
             + b"}\n"
             + b"void last() { " + LOADER % 2 + b" }")
    with open(os.path.join(out, "mixed.cpp"), "wb") as f:
        f.write(mixed)


if __name__ == "__main__":
    main()
