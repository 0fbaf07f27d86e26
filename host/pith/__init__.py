"""Pith: find the main content of a web page (host pipeline, native-messaging host, CLI)."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
SNAPSHOT_VERSION = 1
