from memreview.cli import run

run()
