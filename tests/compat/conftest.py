"""conftest.py - session fixtures of the interoperability harness: the Spark-generated tables
(from the cache, or generated once), and one Spark worker per Hudi bundle, started on first
use and shared by every test. A missing peer skips the tests that need it, naming what is
missing; it never passes them."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_spark_tables as gen  # noqa: E402
import spark_harness as h  # noqa: E402

_peers = {}
_peer_errors = {}


def spark_peer(version):
    """The shared SparkPeer for a bundle version; skips the calling test if Spark cannot run."""
    if version in _peer_errors:
        pytest.skip(_peer_errors[version])
    if version not in _peers:
        why = h.spark_missing(version)
        if why:
            _peer_errors[version] = "Spark with Hudi %s unavailable: %s" % (version, why)
            pytest.skip(_peer_errors[version])
        try:
            _peers[version] = h.SparkPeer(version)
        except h.PeerError as e:
            _peer_errors[version] = "Spark with Hudi %s failed to start: %s" % (version, e)
            pytest.fail(_peer_errors[version])
    return _peers[version]


@pytest.fixture(scope="session")
def spark015():
    """A getter, not the peer: a test calls it after its own skips, so a test that skips for
    another reason never pays for a JVM start."""
    return lambda: spark_peer(h.WRITER)


@pytest.fixture(scope="session")
def spark10():
    return lambda: spark_peer(h.READER2)


@pytest.fixture(scope="session")
def spark_tables():
    """(folder, manifest) of the Spark-written tables; generated with Spark on a cache miss."""
    got = gen.load_cached()
    if got:
        return got
    why = h.spark_missing(h.WRITER)
    if why:
        pytest.skip("no cached Spark tables for key %s and Spark cannot run: %s"
                    % (gen.cache_key(), why))
    return gen.ensure(log=lambda s: sys.stderr.write("gen_spark_tables: %s\n" % s))


def pytest_sessionfinish(session, exitstatus):
    for p in _peers.values():
        p.close()
    _peers.clear()
