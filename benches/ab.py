#!/usr/bin/env python3
"""ab.py: compare commands (two builds of urlx, two settings) on one input,
with their runs interleaved.

    python3 benches/ab.py RUNS INPUT CMD [-- CMD ...]

Each CMD is a command line (split on whitespace) that gets INPUT appended;
its output goes to /dev/null. After one warm-up run of each, every round
runs each command once, in a new random order, and the median wall time
of each is printed with its ratio to the first command's.

Why not hyperfine: hyperfine runs all the runs of one command, then all
of the next. On the shared machines urlx is measured on, speed drifts by
10 to 20% over minutes, so a comparison made that way can report a gain
that an interleaved one does not.
"""
import os
import random
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    target = sys.argv[2]
    cmds = [c.split() for c in " ".join(sys.argv[3:]).split(" -- ")]
    times = [[] for _ in cmds]
    with open(os.devnull, "w") as null:
        for c in cmds:
            subprocess.run(c + [target], stdout=null, stderr=null)
        for _ in range(runs):
            order = list(range(len(cmds)))
            random.shuffle(order)
            for k in order:
                start = time.perf_counter()
                subprocess.run(cmds[k] + [target], stdout=null, stderr=null)
                times[k].append(time.perf_counter() - start)
    first = statistics.median(times[0])
    for c, t in zip(cmds, times):
        m = statistics.median(t)
        print("%9.1f ms  %.3f  %s" % (m * 1000, m / first, " ".join(c)))


if __name__ == "__main__":
    main()
