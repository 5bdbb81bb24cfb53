"""Flow Sampling (Havens, Karrer, Shaul, ICML 2026): flow matching for unnormalised densities."""
