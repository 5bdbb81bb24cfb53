"""SmolLM2-135M in-process generation: seconds per item batched vs one at a time, and model load from the
local cache beside the first GGUF conversion, side by side in one run.

    nice .venv/bin/python benchmarks/brokenmath_generation.py --items 8 --new-tokens 32

The conversion is timed into a fresh temporary cache (so the user's cache is untouched).
"""

from __future__ import annotations

import argparse
import tempfile
import time

import torch

from icml26.brokenmath import TransformersChat, brokenarith, load_smollm2
from icml26.brokenmath.brokenarith import arith_messages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=8)
    parser.add_argument("--new-tokens", type=int, default=32)
    parser.add_argument("--skip-convert", action="store_true", help="do not time a fresh GGUF conversion")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = []
    if not args.skip_convert:
        with tempfile.TemporaryDirectory() as tmp:
            _, _, first = load_smollm2(tmp)
            _, _, again = load_smollm2(tmp)
        rows.append(("first GGUF conversion (s)", first["convert_s"]))
        rows.append(("load from cache (s)", again["cache_load_s"]))
        rows.append(("conversion / cache load (x)", first["convert_s"] / again["cache_load_s"]))
    model, tok, _ = load_smollm2()
    convs = [arith_messages(f) for f, _ in brokenarith.generate(args.items, seed=3)]
    timings = {}
    for batch in (args.items, 1):
        chat = TransformersChat(model, tok, max_new_tokens=args.new_tokens, batch_size=batch)
        start = time.perf_counter()
        chat.chat(convs)
        timings[batch] = (time.perf_counter() - start) / args.items
    rows.append((f"batched ({args.items}) s/item", timings[args.items]))
    rows.append(("one at a time s/item", timings[1]))
    rows.append(("one at a time / batched (x)", timings[1] / timings[args.items]))
    for name, value in rows:
        print(f"{name:32s} {value:10.3f}")


if __name__ == "__main__":
    main()
