#!/usr/bin/env python3
"""urlx as an Apache Spark `RDD.pipe` stage, tested with pyspark in local
mode (see scale/README.md).

The text lines of corpora/text/* (files in sorted order) are spread over
a few partitions with `sc.parallelize(lines, P)`, and

    rdd.pipe("/bin/sh -c '<urlx> --json --format text -; [ $? -le 1 ]'",
             checkCode=True)

runs one urlx per partition (pyspark writes each element and a newline to
its standard input). Checks:

1. The piped JSON Lines are exactly, as a multiset, what `urlx --json
   --format text -` prints when each partition's lines (taken with
   `glom()`) are fed to it separately; so the union of the URLs is too.
2. Against one run over all the text: partition boundaries are line
   boundaries, so every URL away from them is found, with the same line
   once the partition's first line is added. A URL wrapped across lines
   (`<URL:...>` over two lines, a hyphen line break) whose lines fall in
   two partitions is cut; the script lists what differs near boundaries.

pyspark comes from the environment if importable, else it is installed
with `pip install --target $SCALE_CACHE/pyspark-py pyspark` (SCALE_CACHE
defaults to /tmp/urlx-scale-cache; about 500 MB installed). It needs Java
17 or later (`java` on PATH or JAVA_HOME). When pyspark cannot be
installed or Java is missing the script prints SKIP and exits 0 (2 with
--strict). Spark is bound to 127.0.0.1 and its web UI is off.

Usage: scale/spark_pipe_test.py [--partitions P] [--cores C] [--urlx PATH]
                                [--strict]
Exit status: 0 pass (or skip), 1 a check failed, 2 skip with --strict.
"""

import argparse
import collections
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(msg):
    print(f"spark_pipe_test: {msg}", file=sys.stderr, flush=True)


def skip(msg, strict):
    print(f"SKIP: {msg}")
    sys.exit(2 if strict else 0)


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def ensure_pyspark(cache, strict):
    try:
        import pyspark  # noqa: F401

        return "from the environment"
    except ImportError:
        pass
    target = os.path.join(cache, "pyspark-py")
    if not os.path.isdir(os.path.join(target, "pyspark")):
        log(f"installing pyspark into {target}")
        t = time.monotonic()
        r = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
             "-q", "--target", target, "pyspark"],
        )
        if r.returncode != 0:
            skip("pip install pyspark failed", strict)
        log(f"installed pyspark in {time.monotonic() - t:.1f} s, "
            f"{du(target) / 2**20:.0f} MiB")
    sys.path.insert(0, target)
    # Spark's Python workers are separate processes: they find pyspark
    # through PYTHONPATH.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [target] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return f"from {target}"


def java_ok():
    java = shutil.which("java")
    if os.environ.get("JAVA_HOME"):
        java = os.path.join(os.environ["JAVA_HOME"], "bin", "java")
    if not java or not os.access(java, os.X_OK):
        return None
    out = subprocess.run([java, "-version"], capture_output=True, text=True)
    return (out.stderr or out.stdout).splitlines()[0] if out.returncode == 0 else None


def urlx_json(urlx, text):
    """One mapper run: the hits of `urlx --json --format text -` on text."""
    r = subprocess.run([urlx, "--json", "--format", "text", "-"],
                       input=text.encode("utf-8"), capture_output=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"urlx exited {r.returncode}: {r.stderr!r}")
    return r.stdout.decode("utf-8").splitlines()


def read_lines():
    """The lines of corpora/text/*, as textFile would give them."""
    lines = []
    for f in sorted(glob.glob(os.path.join(ROOT, "corpora", "text", "*"))):
        text = open(f, "rb").read().decode("utf-8", errors="replace")
        if text.endswith("\n"):
            text = text[:-1]
        lines.extend(text.split("\n"))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--urlx", default=os.environ.get("URLX"))
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()

    urlx = args.urlx or os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
        "release", "urlx")
    if not os.access(urlx, os.X_OK):
        log(f"building {urlx}")
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "urlx",
                        "--manifest-path", os.path.join(ROOT, "Cargo.toml")],
                       check=True)
    urlx = os.path.abspath(urlx)

    jv = java_ok()
    if not jv:
        skip("no java (pyspark needs Java 17 or later): apt-get install "
             "openjdk-17-jre-headless", args.strict)
    t0 = time.monotonic()
    where = ensure_pyspark(os.environ.get("SCALE_CACHE", "/tmp/urlx-scale-cache"),
                           args.strict)
    t_install = time.monotonic() - t0

    import pyspark
    from pyspark.sql import SparkSession

    log(f"pyspark {pyspark.__version__} {where}; {jv}")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    t1 = time.monotonic()
    spark = (SparkSession.builder.master(f"local[{args.cores}]")
             .appName("urlx-pipe-test")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .getOrCreate())
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    t_start = time.monotonic() - t1

    t2 = time.monotonic()
    lines = read_lines()
    rdd = sc.parallelize(lines, args.partitions)
    parts = rdd.glom().collect()
    # pyspark's pipe takes one command string (shlex-split, no shell) and
    # by default an empty environment. urlx exits 1 when a partition has
    # no URL, which checkCode=True would take for a failure: the sh
    # wrapper maps 1 to 0 and keeps 2 (an error) an error.
    mapper = f"{shlex.quote(urlx)} --json --format text -; [ $? -le 1 ]"
    command = shlex.join(["/bin/sh", "-c", mapper])
    piped = rdd.pipe(command, checkCode=True).collect()
    t_pipe = time.monotonic() - t2
    spark.stop()

    failures = 0

    # 1. Spark's pipe = urlx on each partition's lines, fed separately.
    expected = []
    for part in parts:
        expected.extend(urlx_json(urlx, "".join(l + "\n" for l in part)))
    same = collections.Counter(piped) == collections.Counter(expected)
    urls_piped = {json.loads(l)["url"] for l in piped}
    urls_expected = {json.loads(l)["url"] for l in expected}
    print(f"partitions: {len(parts)} ({', '.join(str(len(p)) for p in parts)} "
          f"lines); pipe: {len(piped)} hits, {len(urls_piped)} distinct URLs")
    if same and urls_piped == urls_expected:
        print("check 1 passed: pipe output = urlx --json on each partition "
              "fed separately (same JSON Lines, same union of URLs)")
    else:
        failures += 1
        print("check 1 FAILED: pipe output differs from urlx per partition")
        for l in sorted(set(piped) ^ set(expected))[:20]:
            print("  ", l)

    # 2. Against one run over all the lines.
    whole = [json.loads(l) for l in urlx_json(urlx, "".join(l + "\n" for l in lines))]
    first = []  # 1-based first line of each partition in the whole text
    n = 1
    for part in parts:
        first.append(n)
        n += len(part)
    split = []
    for part, line0 in zip(parts, first):
        for l in urlx_json(urlx, "".join(x + "\n" for x in part)):
            h = json.loads(l)
            h["line"] += line0 - 1
            split.append(h)
    boundaries = first[1:]
    near = set()
    for b in boundaries:
        near |= {b - 1, b}
    # A whole-run hit whose text spans lines from one partition into the
    # next: mark all its lines.
    data = "".join(l + "\n" for l in lines).encode("utf-8")  # start/end are bytes
    for h in whole:
        end_line = h["line"] + data.count(b"\n", h["start"], h["end"])
        if any(h["line"] < b <= end_line for b in boundaries):
            near |= set(range(h["line"], end_line + 1))
    key = lambda h: (h["line"], h["url"])
    want = collections.Counter(key(h) for h in whole if h["line"] not in near)
    got = collections.Counter(key(h) for h in split if h["line"] not in near)
    print(f"whole text: {len(whole)} hits; partitions begin at lines {first}")
    for h in whole:
        if h["line"] in near:
            print(f"  near a boundary, one run:    line {h['line']}: {h['url']}")
    for h in split:
        if h["line"] in near:
            print(f"  near a boundary, partitions: line {h['line']}: {h['url']}")
    if want == got:
        print(f"check 2 passed: the {sum(want.values())} hits away from partition "
              "boundaries are the same as in one run")
    else:
        failures += 1
        print("check 2 FAILED away from partition boundaries:")
        for k in sorted(set(want) ^ set(got))[:20]:
            print(f"   {k}: one run {want[k]}, partitions {got[k]}")

    print(f"timing: pyspark available in {t_install:.1f} s, Spark session "
          f"{t_start:.1f} s, parallelize+glom+pipe {t_pipe:.1f} s")
    print(f"{2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
