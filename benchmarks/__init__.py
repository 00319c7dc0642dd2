"""rnsim's benchmark suite (airspeed velocity): speed, memory, report time,
loading time and the drift gate's efficiency, tracked over commits.

    make bench                         # the full suite, results kept in .asv/ (asv publish; asv preview: the plots)
    make bench MODE=short              # CI's short mode: every benchmark once, small sizes, not kept
    python -m benchmarks.compare --against PATH   # games per CPU-second of two checkouts, interleaved
    python -m benchmarks.profile ...   # where an expert game's time goes (py-spy, callgrind)

docs/performance.md says what each benchmark measures and the numbers.
"""
