import os

os.environ.setdefault("ICML26_PROGRESS", "0")
