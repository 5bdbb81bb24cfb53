"""icml26: runnable, tested reference implementations of nineteen ICML 2026 papers."""

__version__ = "0.1.0"
