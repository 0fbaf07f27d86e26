"""What a page says about itself (title, authors, dates, site, ...): read from what it declares and what it shows, merged once for every output.

Modules, one job each: `declared` (the snapshot's `declared` object: built by the static
capture, checked when it comes from outside), `jsonld` (schema.org JSON-LD), `tags`
(<meta>, microdata, <link rel>: OpenGraph, Twitter cards, Dublin Core, ...), `dates`
(date strings to ISO 8601), `window` (the rows around the chosen content and how they
are searched), `byline` (the names a page shows), `dateline` (the dates a page shows),
`shown` (what the page only shows, gathered: its h1, the byline, the date line, the URL's
date), `merge` (precedence, the title's site suffix, limits: the `Metadata` every output
carries), `frontmatter` (YAML).
Of the rest of the pipeline its modules import only the leaf helpers (`wordtrie`, `codes`,
`features`' string tools); pipeline.snapshot imports `declared`, select imports `merge`.
They read a validated Snapshot and the features' `gone` mask.
"""
