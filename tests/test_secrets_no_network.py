"""detect-secrets' plugins are imported for their patterns alone: ``requests``, which they
import only to verify a key over the network, is not loaded with them, and whoever imports it
afterwards gets the real module (each case in a fresh interpreter)."""

from __future__ import annotations

from shared_helpers import fresh_interpreter

# a key of each kind the plugins' patterns find (the last is one of memreview's own formats)
PROBE = """
    import json, sys
    {before}
    from memreview.secrets import _provider_patterns, find_secrets
    kinds = [s.kind for s in find_secrets(
        "aws AKIAIOSFODNN7EXAMPLF slack xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx "
        "github ghp_0123456789abcdefghijklmnopqrstuvwxyz"
    )]
    loaded = "requests" in sys.modules
    import requests
    print(json.dumps({{
        "kinds": kinds,
        "patterns": len(_provider_patterns()),
        "requests_loaded": loaded,
        "real_requests": callable(getattr(requests, "get", None)),
    }}))
"""


def probe(before: str = "") -> dict:
    return fresh_interpreter(PROBE.format(before=before))


def test_the_patterns_come_without_requests():
    got = probe()
    assert got["requests_loaded"] is False
    assert got["kinds"] == ["AWS Access Key", "Slack Token", "GitHub Token"]
    assert got["real_requests"] is True  # the stand-in is gone once the plugins are in


def test_a_plugin_that_needs_more_of_requests_gets_the_real_module():
    # a detect-secrets whose import reads a name the stand-in lacks: imported again, with
    # the real requests, and every pattern is there
    lacking = """
    import memreview.secrets as s
    del s._NoNetwork.Response
    """
    got, plain = probe(lacking), probe("import requests")
    assert got["requests_loaded"] is True
    assert got["kinds"] == plain["kinds"] == ["AWS Access Key", "Slack Token", "GitHub Token"]
    assert got["patterns"] == plain["patterns"] > 20
