"""The lit test format of test/lit.cfg.py, in a module of its own because
lit's worker processes receive it pickled, by module and name."""
import os

import lit.formats


class ShTestLoggingStarts(lit.formats.ShTest):
    """ShTest that appends each test's name to $LIBTORCH_TIDY_LIT_STARTED as
    it starts, so test/run_lit_suite.py can name the tests that were running
    when a suite ran out of time."""

    def execute(self, test, litConfig):
        started = os.environ.get("LIBTORCH_TIDY_LIT_STARTED")
        if started:
            with open(started, "a") as f:
                f.write(test.getFullName() + "\n")
        return super().execute(test, litConfig)
