"""frameeval benchmarks: ``python -m benchmarks --scale small|medium|large``."""
