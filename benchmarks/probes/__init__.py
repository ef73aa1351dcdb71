"""Probes: the one-off measurements behind the figures of ``docs/performance.md``.

Each module here is a small script that measured one claim of that page (a ratio of a
frameeval expression to the bare Polars formula, an A/B of two plans in one process, the memory
a lazy query adds), kept so that the next engineer can rerun it and read the same kind of
number. They are NOT part of ``python -m benchmarks`` (the suite of :mod:`benchmarks.tasks`
with its goal lines), and the suite does not import them (a test only checks that each
imports quietly); run one from the repository root with

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.<name> [arguments]

(each module's docstring gives its arguments, environment variables and the section of
``docs/performance.md`` it backs). ``CPU=1`` times with :func:`time.process_time` (CPU time of
the process) instead of wall time; ``POLARS_MAX_THREADS=1`` makes that CPU time one Polars
thread's. Importing a probe builds no data and runs nothing: the data is made in its
``cases()`` and the measurement in its ``main()``.

A before/after figure compares two checkouts: run the same probe twice, once with
``PYTHONPATH`` naming each checkout's root (the one whose ``frameeval`` is measured), e.g.
``PYTHONPATH=/path/to/main python -m benchmarks.probes.single_measures 9``. The ``*_ab``
probes instead compare two plans in one process (one checkout), by patching a planning
function while the "before" expressions are built or planned.
"""
