from memreview.cli import main

raise SystemExit(main())
