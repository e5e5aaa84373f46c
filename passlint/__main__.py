"""`python -m passlint` entry point."""

from passlint.cli import main

# Guarded: worker processes started by spawn or the fork server import this module again
# (as `__mp_main__`), and must not start another passlint.
if __name__ == "__main__":
    raise SystemExit(main())
