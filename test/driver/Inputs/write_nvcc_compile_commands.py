"""write_nvcc_compile_commands.py OUT DIR HOST_CPP KERNEL_CU -- HOST_FLAGS...

A compile database as CMake writes it for a project with CUDA: the host
file and the kernel are both compiled by nvcc, with nvcc's device options
and the host flags behind -Xcompiler / as plain flags."""
import json
import sys

args = sys.argv[1:]
split = args.index("--")
out, directory, host, kernel = args[:split]
flags = args[split + 1:]
nvcc = ["/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
        "--expt-relaxed-constexpr", "--extended-lambda",
        "-gencode", "arch=compute_80,code=sm_80",
        "-gencode=arch=compute_90,code=[sm_90,compute_90]",
        "-Xcompiler=-fPIC", "-Xcompiler", "-Wall,-Wextra", "-rdc=true"]
with open(out, "w") as f:
    json.dump([
        {"directory": directory, "file": host,
         "arguments": nvcc + flags + ["-x", "c++", "-c", host, "-o", "host.o"]},
        {"directory": directory, "file": kernel,
         "arguments": nvcc + flags + ["-x", "cu", "-c", kernel, "-o", "kernel.o"]},
    ], f, indent=2)
