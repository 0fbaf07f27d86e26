"""`python -m pith`: the same as the `pith` console script."""
from .cli import main

raise SystemExit(main())
