"""Writers: turn what the planting stages built into files, one module per kind of file,
each file recorded in the manifest with its size."""
