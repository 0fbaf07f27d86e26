"""One scorer per seed paper; each is a pure function over the arrays of `features`."""
