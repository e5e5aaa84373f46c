"""`python -m passlint` entry point."""

from passlint.cli import main

raise SystemExit(main())
