import sys

from frameeval.cli import main

sys.exit(main())
