"""The extraction pipeline: a snapshot in, the main content's node and its text out.

Validation (snapshot), per-node aggregates (features), the tunables (options), the tag
vocabularies every stage shares (tags), the methods (algorithms/ and their learned models
in models/), the block stage (blocks/: what a block is, its features, the block model and
the keep decision, the element of highest expected F1), the reader's cleaning (reader),
the output formats (render), and select, the only module that knows the stage order.
The data flows one way: snapshot, features and tags at the bottom; algorithms over them;
blocks/ over the algorithms; render and reader over a snapshot and a Choice (never
select); select over all of them. It may import only the root (pith and pith.errors) and
itself: no browser, no pipe, no measuring, so it runs the same under the CLI, the native
host and the bench.
"""
