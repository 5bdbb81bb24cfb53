#!/usr/bin/env bash
# Create .venv and install icml26 with every method's extras and the test tools.
# PyTorch is pinned to the CPU build by constraints.txt, so no multi-GB CUDA build is downloaded.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[all,dev]"
# Packages whose declared dependencies would compile native code we do not use: installed without them.
.venv/bin/pip install --quiet --disable-pip-version-check -c constraints.txt --no-deps -r requirements-nodeps.txt
echo "icml26 installed in .venv"
