"""Reference engines: small, documented examples of the protocol, never served.

``engines.reference.tally`` shows how to write an engine on ``engines.core.BaseEngine``;
the platform tests (tests/api, tests/engines/test_core.py) play it. It is deliberately not
in ``engines.registry``: no toy game ships on the site.
"""
