"""Getting pages in: from a path, a URL or a live browser to a snapshot.

lxml snapshots of raw HTML and the is-it-HTML rule (static), Playwright capture with
capture.js (browser), the CLI's inputs (inputs), network failures in words (network), and
the real extension driven in Chromium (extension). It may import the root (pith and
pith.errors), the pipeline, the native side (extension needs install's paths for the demo
profile) and itself.
"""
