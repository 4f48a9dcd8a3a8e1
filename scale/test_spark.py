"""The Spark job (scale/spark_urlx.py) in local mode, each of its three
modes, against the command line on the same files: the hits must be the
same objects (as a multiset: Spark does not keep the order across
partitions), with their provenance, and the JSON Lines and Parquet
outputs must hold them.

Needs pyspark and Java 17 or later, the urlx Python package (pip install
.) and the urlx binary (URLX_BIN, or target/release/urlx). CI runs it;
without pyspark or Java it is skipped, and URLX_SPARK_REQUIRED=1 (set in
CI) makes that a failure instead.
"""

import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scale"))

import spark_urlx  # noqa: E402

# Real samples of every archive kind, compressed and not.
SAMPLE = [
    "mail/kasan-dev-2.mboxrd",
    "mail/usrp-users-4.mboxrd.gz",
    "mail/sa-hard_ham-00247.42534d5df0700cb2adf240556c539947.eml",
    "mail/spamassassin-nice-mime9.eml",
    "mail/spamassassin-spam-utf16.eml",
    "news/20news-train-sci.crypt-14831.txt",
    "web/sample.warc",
    "web/sample.warc.gz",
    "text/rfc1738.txt",
    "logs/loghub-Spark_2k.lines-0001-0200.log",
]


def unavailable(why):
    if os.environ.get("URLX_SPARK_REQUIRED") == "1":
        pytest.fail(why)
    pytest.skip(why)


def urlx_bin():
    path = os.environ.get("URLX_BIN") or str(ROOT / "target" / "release" / "urlx")
    if not os.path.exists(path):
        unavailable(f"no urlx binary at {path}")
    return os.path.abspath(path)


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        unavailable("pyspark is not installed")
    if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        unavailable("no Java")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("urlx-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    # The job's functions are imported from its module on the workers.
    session.sparkContext.addPyFile(str(ROOT / "scale" / "spark_urlx.py"))
    yield session
    session.stop()


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    d = tmp_path_factory.mktemp("archives")
    for name in SAMPLE:
        shutil.copy(ROOT / "corpora" / name, d / name.replace("/", "-"))
    return d


def canonical(objs):
    return collections.Counter(json.dumps(o, sort_keys=True) for o in objs)


def cli_hits(files):
    out = []
    for f in files:
        run = subprocess.run(
            [urlx_bin(), "--json", "-j1", "--", f], capture_output=True
        )
        assert run.returncode in (0, 1), run.stderr
        out.extend(json.loads(line) for line in run.stdout.splitlines())
    return out


@pytest.fixture(scope="module")
def want(sample):
    files = spark_urlx.list_files(str(sample))
    hits = cli_hits(files)
    kinds = {h.get("record_type") for h in hits} | {
        "mail" for h in hits if h.get("message_id")
    }
    assert {"response", "mail"} <= kinds, "the sample has mail and web records"
    return canonical(hits)


@pytest.mark.parametrize("mode", ["files", "bytes", "pipe"])
def test_each_mode_equals_the_cli(spark, sample, want, mode):
    rdd = spark_urlx.hits_rdd(spark, str(sample), mode, 3, urlx_bin())
    got = canonical(json.loads(line) for line in rdd.collect())
    assert got == want


def test_outputs_hold_the_hits(spark, sample, want, tmp_path):
    rdd = spark_urlx.hits_rdd(spark, str(sample), "files", 3, urlx_bin())
    spark_urlx.write(spark, rdd, str(tmp_path / "jsonl"), "jsonl")
    lines = []
    for part in sorted((tmp_path / "jsonl").glob("part-*")):
        lines.extend(part.read_text(encoding="utf-8").splitlines())
    assert canonical(json.loads(line) for line in lines) == want
    spark_urlx.write(spark, rdd, str(tmp_path / "parquet"), "parquet")
    rows = spark.read.parquet(str(tmp_path / "parquet")).collect()
    got = collections.Counter((r.file, r.url, r.start, r.record_id) for r in rows)
    expected = collections.Counter(
        (h["file"], h["url"], h["start"], h.get("record_id"))
        for h in map(json.loads, want.elements())
    )
    assert got == expected


def test_the_job_runs_with_spark_submit_arguments(spark, sample, want, tmp_path):
    # main() as spark-submit calls it (the session is the one running).
    out = tmp_path / "out"
    assert spark_urlx.main(["--input", str(sample), "--output", str(out)]) == 0
    lines = []
    for part in sorted(out.glob("part-*")):
        lines.extend(part.read_text(encoding="utf-8").splitlines())
    assert canonical(json.loads(line) for line in lines) == want
