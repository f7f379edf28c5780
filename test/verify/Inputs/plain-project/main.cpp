// A program with nothing for libtorch-tidy to report: the bad-input tests of
// verify run other commands (a crash, a hang, silence) in its place.
int main() { return 0; }
