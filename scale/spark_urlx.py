#!/usr/bin/env python3
"""urlx on Apache Spark: the URLs of a directory of archives (mbox,
Maildir files, .eml, news, WARC/WET/WAT, plain text; compressed or not),
one JSON object per URL with its provenance, as JSON Lines or Parquet.

    spark-submit scale/spark_urlx.py --input DIR --output OUT \\
        [--mode files|bytes|pipe] [--output-format jsonl|parquet] \\
        [--partitions N] [--urlx PATH]

Work is split by file, never inside a file: a mail message or a WARC
record is always read whole by one task, so every hit is what `urlx
--json FILE` gives for it (file, line, offsets, message, record).

Modes:
- files (default): the driver lists the files under --input; each task
  reads its files with `urlx.scan_file` (the Python package, streamed in
  bounded memory). The paths must be readable by the executors (a local
  or shared file system).
- bytes: `sparkContext.binaryFiles(--input)` (any Hadoop file system:
  HDFS, S3A, ...); each task gives a file's bytes to `urlx.find` with
  the format decided from them and compressed data decompressed by its
  magic bytes. A file must fit in an executor's memory.
- pipe: `RDD.pipe` of the file paths through the urlx binary (--urlx,
  on every executor), one `urlx --json -j1 FILE` per path; no Python
  package needed on the executors.

Each hit is the object `urlx --json` prints for it; `file` is the path
as listed (in bytes mode, the path of the file's URI).
"""

import argparse
import json
import os
import shlex
import sys
from typing import Iterable, Iterator, List


def list_files(root: str) -> List[str]:
    """Every file under `root` (or `root` itself), sorted, as urlx walks
    a directory: hidden files included."""
    if os.path.isfile(root):
        return [root]
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        out.extend(os.path.join(d, f) for f in sorted(files))
    return out


def scan_paths(paths: Iterable[str]) -> Iterator[str]:
    """mapPartitions of the files mode: JSON Lines of each path's hits."""
    import urlx

    for path in paths:
        for hit in urlx.scan_file(path):
            yield json.dumps(hit.to_dict(), ensure_ascii=False)


def scan_bytes(items: Iterable) -> Iterator[str]:
    """mapPartitions of the bytes mode: (URI, bytes) pairs."""
    import warnings

    import urlx

    for uri, data in items:
        path = uri[len("file:") :] if uri.startswith("file:") else uri
        with warnings.catch_warnings():
            # A file skipped as binary is not an error of the job.
            warnings.simplefilter("ignore", urlx.UrlxWarning)
            hits = urlx.find(
                bytes(data),
                format="auto",
                decompress=True,
                binary=False,
                name=path,
            )
        for hit in hits:
            yield json.dumps(hit.to_dict(), ensure_ascii=False)


def pipe_command(urlx_bin: str) -> str:
    """The `RDD.pipe` command: one `urlx --json -j1 FILE` per path read
    from standard input; exit status 1 (no URL in a file) is not a
    failure, 2 (an error) is."""
    script = (
        'while IFS= read -r f; do '
        f'{shlex.quote(urlx_bin)} --json -j1 -- "$f"; '
        's=$?; [ "$s" -le 1 ] || exit "$s"; done'
    )
    return "/bin/sh -c " + shlex.quote(script)


def hits_rdd(spark, source: str, mode: str, partitions: int, urlx_bin: str):
    """The RDD of JSON Lines (one string per hit) for `source`."""
    sc = spark.sparkContext
    if mode == "bytes":
        return sc.binaryFiles(source, minPartitions=partitions).mapPartitions(
            scan_bytes
        )
    paths = list_files(source)
    rdd = sc.parallelize(paths, max(1, min(partitions, len(paths))))
    if mode == "files":
        return rdd.mapPartitions(scan_paths)
    if mode == "pipe":
        return rdd.pipe(pipe_command(urlx_bin), checkCode=True)
    raise ValueError(f"unknown mode {mode!r}")


def write(spark, rdd, output: str, output_format: str) -> None:
    if output_format == "jsonl":
        rdd.saveAsTextFile(output)
    elif output_format == "parquet":
        # The schema is inferred from the objects (mail and web archive
        # fields are null where they do not apply).
        spark.read.json(rdd).write.parquet(output)
    else:
        raise ValueError(f"unknown output format {output_format!r}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--input", required=True, help="a directory, file or (bytes mode) Hadoop glob")
    ap.add_argument("--output", required=True)
    ap.add_argument("--mode", choices=["files", "bytes", "pipe"], default="files")
    ap.add_argument("--output-format", choices=["jsonl", "parquet"], default="jsonl")
    ap.add_argument("--partitions", type=int, default=0, help="default: the cluster's default parallelism")
    ap.add_argument("--urlx", default="urlx", help="the binary, for --mode pipe")
    args = ap.parse_args(argv)

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("urlx").getOrCreate()
    try:
        partitions = args.partitions or spark.sparkContext.defaultParallelism
        rdd = hits_rdd(spark, args.input, args.mode, partitions, args.urlx)
        write(spark, rdd, args.output, args.output_format)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
