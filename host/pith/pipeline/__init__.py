"""The extraction pipeline: a snapshot in, the main content's node and its text out.

Validation (snapshot), per-node aggregates (features), the tunables (options), the methods
(algorithms/ and their learned models in models/), the block stage (blocks, block_features,
keep), the reader's cleaning (reader), the output formats (render), and select, the only
module that knows the stage order. It may import only the root (pith and pith.errors) and
itself: no browser, no pipe, no measuring, so it runs the same under the CLI, the native
host and the bench.
"""
