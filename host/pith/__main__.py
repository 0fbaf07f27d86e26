"""`python -m pith`: the same as the `pith` console script."""
from .cli import main

if __name__ == "__main__":      # not when a batch worker process imports the main module
    raise SystemExit(main())
