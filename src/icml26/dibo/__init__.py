"""DiBO: training diffusion language models for (offline) black-box optimisation.

Sun, Chen, Yuan, Wu, Gu, Pal, Liu, "Training Diffusion Language Models for Black-Box Optimization",
ICML 2026 (arXiv:2603.17919). A 0.88M-parameter masked-diffusion LM (the CPU default) stands in for
LLaDA-8B; see docs/methods/dibo.md.
"""

from icml26.dibo import shipped, tasks
from icml26.dibo.corpus import (
    DELIMITERS,
    N_SHOTS,
    VOCAB,
    Pool,
    encode_items,
    format_label,
    layouts,
    parse_design,
)
from icml26.dibo.decoding import fill_autoregressive, fill_one_step, fill_remasking
from icml26.dibo.dibo import DiBO, DiBOConfig, Proposal
from icml26.dibo.model import DiffusionLM, adaptation_loss, ar_loss, ar_rl_loss, corrupt, rl_loss, sft_loss
from icml26.dibo.tasks import Task, ehrlich, from_data, get_task, tfbind8

__all__ = [
    "DELIMITERS",
    "N_SHOTS",
    "VOCAB",
    "DiBO",
    "DiBOConfig",
    "DiffusionLM",
    "Pool",
    "Proposal",
    "Task",
    "adaptation_loss",
    "ar_loss",
    "ar_rl_loss",
    "corrupt",
    "ehrlich",
    "encode_items",
    "fill_autoregressive",
    "fill_one_step",
    "fill_remasking",
    "format_label",
    "from_data",
    "get_task",
    "layouts",
    "parse_design",
    "rl_loss",
    "sft_loss",
    "shipped",
    "tasks",
    "tfbind8",
]
