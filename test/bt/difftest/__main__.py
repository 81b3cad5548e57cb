"""``cd test/bt && python -m difftest --trees 5000 --seed 1`` (see cli.py)."""
import sys

from .cli import main

sys.exit(main())
