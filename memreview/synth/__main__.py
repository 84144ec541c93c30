"""``python -m memreview.synth``."""

import sys

from memreview.synth.cli import main

sys.exit(main())
